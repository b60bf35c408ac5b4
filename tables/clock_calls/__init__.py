"""Calling the clock on a player (docs/rules.md §9)."""
