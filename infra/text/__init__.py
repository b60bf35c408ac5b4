"""infra.text."""
