"""Hand-for-hand play near the money (docs/rules.md §11.5, TDA RP-8)."""
