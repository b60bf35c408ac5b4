"""tables.floor_actions."""
