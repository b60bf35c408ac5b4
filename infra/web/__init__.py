"""The web layer's shared parts: the ASGI handler, middleware, the API's error contract,
the schema types and form fields with their bounds, how a page's form answers."""
