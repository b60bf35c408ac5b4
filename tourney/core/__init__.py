"""The kernel the features share: locks, roles, errors, signed-link generations, triggers."""
