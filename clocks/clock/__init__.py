"""The running clock: its use cases, the operations inside them, its reads, the embedded loop."""
