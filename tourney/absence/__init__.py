"""Absent players (docs/rules.md §2.3)."""
