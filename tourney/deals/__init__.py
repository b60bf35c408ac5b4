"""tourney.deals."""
