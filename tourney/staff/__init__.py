"""Staff accounts, roles and API tokens."""
