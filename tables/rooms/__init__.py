"""tables.rooms."""
