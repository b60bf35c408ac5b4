"""tourney.absence."""
