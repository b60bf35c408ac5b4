"""The event streams of staff pages and signed links (Server-Sent Events)."""
