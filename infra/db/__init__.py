"""infra.db."""
