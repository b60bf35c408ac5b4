"""Event streams: SSE framing and the hub that delivers published events to the open streams
of a process (one subscription per event loop)."""
