"""Event streams: SSE framing and the hub that delivers published events to a process's open\nstreams (one subscription per event loop)."""
