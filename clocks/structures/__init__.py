"""clocks.structures."""
