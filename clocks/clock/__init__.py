"""clocks.clock."""
