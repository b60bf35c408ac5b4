"""The floor: balancing, table breaks, the final table and the to-do list (docs/rules.md §5-§7)."""
