"""tourney.tournaments."""
