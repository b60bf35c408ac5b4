"""Database helpers: the PostgreSQL backend, raw rows, batched writes."""
