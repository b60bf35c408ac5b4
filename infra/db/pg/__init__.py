"""Django's PostgreSQL backend with a pool that checks a lent connection without a round trip
(`base.py`)."""
