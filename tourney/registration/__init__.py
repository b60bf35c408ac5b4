"""tourney.registration."""
