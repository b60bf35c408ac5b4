"""The festival screens' words that their script puts together."""

from django.utils.translation import gettext as _


def festival_strings() -> dict[str, str]:
    return {
        "level": _("Level %(n)s"),
        "break": _("Break"),
        "paused": _("Paused"),
        "pending": _("Starts soon"),
        "finished": _("Finished"),
        "players": _("Players"),
        "average": _("Average stack"),
        "pool": _("Prize pool"),
        "ante": _("Ante %(n)s"),
        "bb_ante": _("BB ante %(n)s"),
        "next": _("Next: %(what)s"),
        "pending_actions": _("Floor: %(n)s to do"),
        "nothing_pending": _("Floor: nothing to do"),
        "timers_late": _("Timers late by %(s)s s"),
        "hand_for_hand": _("Hand-for-hand"),
        "clock_calls": _("Clock called: %(n)s"),
        "console": _("Console"),
        "none": _("No tournament is running."),
    }
