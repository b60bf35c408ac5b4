"""tourney.system."""
