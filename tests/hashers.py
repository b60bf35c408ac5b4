"""A password hasher for the tests' own process: Django's PBKDF2 at one iteration.

Every staff fixture sets a password, and at Django's 1,000,000 iterations each costs about a
quarter of a second of CPU: more than a third of the suite's time went there. The hash keeps
the algorithm's name (``pbkdf2_sha256$1$...``), so a server or worker a test starts with the
production settings still checks it (PBKDF2 reads the iterations from the hash) and upgrades it
at the first login, as it would an old password.
"""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class OneIterationPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1
