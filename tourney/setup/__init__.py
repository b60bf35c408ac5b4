"""Tournament setup: the settings page, PATCH /tournaments/{id} and their use case."""
