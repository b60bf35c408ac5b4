#!/usr/bin/env python
"""Django's command-line utility for Tourney."""

import os
import sys
from pathlib import Path


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
    if sys.argv[1:2] == ["quickstart"]:
        # Before the settings are read: the quick start keeps a random key of its own.
        from infra.secret_key import ensure_key_file

        ensure_key_file(Path(__file__).resolve().parent)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
