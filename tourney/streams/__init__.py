"""tourney.streams."""
