"""tourney.console."""
