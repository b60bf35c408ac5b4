"""tourney.audit."""
