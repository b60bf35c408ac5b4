"""Rooms, their physical tables and seat restrictions."""
