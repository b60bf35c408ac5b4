"""Deal-making at the final table (docs/rules.md §12.5)."""
