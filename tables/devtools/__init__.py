"""Developer tools: the tournament simulator (`manage.py simulate`), which plays a tournament
through the real use cases."""
