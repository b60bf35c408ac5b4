"""Rebuys and add-ons: the API, the desk's views, the use cases and their reads."""
