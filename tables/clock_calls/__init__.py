"""tables.clock_calls."""
