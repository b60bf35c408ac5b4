"""tourney.events."""
