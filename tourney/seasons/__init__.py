"""tourney.seasons."""
