"""The composition root: the root API, authentication, the page URLs, deployment checks."""
