"""clocks.display."""
