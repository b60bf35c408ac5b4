"""tourney.staff."""
