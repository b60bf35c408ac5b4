"""Blind structures: their API, pages, writes and reads."""
