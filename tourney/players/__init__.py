"""Players: search, duplicates and merge, bans."""
