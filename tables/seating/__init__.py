"""tables.seating."""
