"""tourney.players."""
