"""Writes of structures and of the running clock."""
