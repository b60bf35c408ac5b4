"""Championships (seasons) and their points."""
