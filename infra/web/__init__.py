"""infra.web."""
