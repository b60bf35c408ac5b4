"""The seat draw, late seating, seats held by pending moves, table positions."""
