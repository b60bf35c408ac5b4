"""Database helpers: the PostgreSQL backend, kept cursors, raw rows, batched writes."""
