"""The director's console page and its live parts."""
