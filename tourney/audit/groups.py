"""What an audited action is about, in the reader's language (issue 32: the audit log showed
raw codes such as `entry.eliminate`). An action's code is `<group>.<verb>`; the log's column
and its filter name the group, the summary says what was done; the code itself stays in the
row's tooltip for support and in the exports."""

from django.utils.translation import pgettext_lazy

GROUPS = {
    "backup": pgettext_lazy("audit", "Backups"),
    "bounty": pgettext_lazy("audit", "Bounties"),
    "chips": pgettext_lazy("audit", "Chip counts"),
    "clock": pgettext_lazy("audit", "Clock"),
    "clock_call": pgettext_lazy("audit", "Clock calls"),
    "color_up": pgettext_lazy("audit", "Color-up"),
    "deal": pgettext_lazy("audit", "Deals"),
    "entry": pgettext_lazy("audit", "Entries"),
    "flight": pgettext_lazy("audit", "Flights"),
    "floor": pgettext_lazy("audit", "Floor"),
    "h4h": pgettext_lazy("audit", "Hand-for-hand"),
    "payout_structure": pgettext_lazy("audit", "Payout structures"),
    "penalty": pgettext_lazy("audit", "Penalties"),
    "player": pgettext_lazy("audit", "Players"),
    "players": pgettext_lazy("audit", "Players"),
    "prize": pgettext_lazy("audit", "Prizes"),
    "public_link": pgettext_lazy("audit", "Public page"),
    "registration": pgettext_lazy("audit", "Registration"),
    "room": pgettext_lazy("audit", "Rooms"),
    "season": pgettext_lazy("audit", "Championships"),
    "seat": pgettext_lazy("audit", "Seats"),
    "seating": pgettext_lazy("audit", "Seating"),
    "simulation": pgettext_lazy("audit", "Simulation"),
    "sng": pgettext_lazy("audit", "Sit-and-gos"),
    "sng_series": pgettext_lazy("audit", "Sit-and-gos"),
    "staff": pgettext_lazy("audit", "Staff"),
    "structure": pgettext_lazy("audit", "Structures"),
    "table": pgettext_lazy("audit", "Tables"),
    "token": pgettext_lazy("audit", "API tokens"),
    "tournament": pgettext_lazy("audit", "Tournament"),
}
OTHER = pgettext_lazy("audit", "Other")


def group_of(action: str) -> str:
    """The group's code of an action's code (`entry.eliminate` -> `entry`)."""
    return (action or "").split(".", 1)[0]


def group_label(action: str) -> str:
    """What the action is about, translated; an unknown group reads "Other"."""
    return str(GROUPS.get(group_of(action), OTHER))
