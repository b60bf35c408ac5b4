"""The player's page's words that its script puts together (in the page's language)."""

from django.utils.translation import gettext as _


def player_strings() -> dict[str, str]:
    return {
        "level": _("Level %(n)s"),
        "break": _("Break"),
        "paused": _("Paused"),
        "pending": _("Starts soon"),
        "finished": _("Finished"),
        "blinds": _("Blinds"),
        "ante": _("Ante"),
        "next": _("Next: %(what)s"),
        "next_break": _("Break in %(time)s"),
        "no_break": _("No more breaks"),
        "table_seat": _("Table %(t)s · Seat %(s)s"),
        "moved_title": _("You have been moved"),
        "moved_body": _("Go to table %(t)s, seat %(s)s. Take your chips with you."),
        "move_coming": _("The floor will move you to table %(t)s, seat %(s)s."),
        "notify_title": _("New seat: table %(t)s, seat %(s)s"),
        "ok": _("OK"),
        "offline": _("Offline: showing the last known state"),
        "place": _("Place %(p)s"),
        "places": _("Places %(p)s–%(to)s"),
        "prize": _("Prize: %(amount)s"),
        "no_prize": _("No prize this time. Thank you for playing."),
        "collect": _(
            "Collect your prize at the cage (the registration desk) with this page or your "
            "receipt, before you leave the room."
        ),
        "collected": _("Paid at the cage. Thank you for playing."),
        "out_title": _("Your tournament is over"),
        "waiting": _("Waiting list: you will be called when a seat opens."),
        "not_drawn": _("Your seat is drawn before the start."),
        "unregistered": _("This entry was cancelled."),
        "cancelled_refunded": _("Your buy-in was refunded: %(amount)s."),
        "cancelled_part_refunded": _(
            "You paid %(paid)s; %(refunded)s of it has been refunded. Ask at the registration "
            "desk about the rest."
        ),
        "cancelled_not_refunded": _(
            "You paid %(paid)s. No refund has been recorded yet: ask at the registration desk."
        ),
        "entry": _("Entry"),
        "rebuy": _("Rebuy"),
        "addon": _("Add-on"),
        "prize_receipt": _("Prize"),
        "refund": _("Refund · %(what)s"),
        "seat_free": _("free"),
        "seat_taken": _("taken"),
        "seat_mine": _("your seat"),
        "button": _("button"),
    }
