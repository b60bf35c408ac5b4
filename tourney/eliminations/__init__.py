"""Bust-outs: places, the elimination rows and what a bust-out reads (docs/rules.md §11)."""
