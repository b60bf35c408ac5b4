"""tables.hands."""
