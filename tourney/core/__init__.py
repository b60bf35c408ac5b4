"""tourney.core."""
