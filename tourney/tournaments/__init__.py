"""Tournaments: creating, starting, their tables and messages, their reads."""
