"""Undo wherever an action is listed (issue 13): what each audit entry of the console's activity
panel and of the audit log offers to take it back.

Every undo is the API's own (`POST .../undo` of a bust-out, a floor action, a rebuy, a
penalty, a color-up, a deal, a prize paid, a refund; a refund for a registration; arrival for
an absent mark; the merge undo of a player), so its refusals (a disqualification, a deal made
since, play moved on...) come back as they do everywhere, as a sentence in a toast. An action
already taken back shows "Undone" instead of a button. The statuses are read in one query per
kind for a whole page of entries.
"""

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clocks.models import ColorUp
from tables.models import FloorAction
from tourney.core import roles
from tourney.domain.receipts import REFUND
from tourney.models import (
    AuditEntry,
    ChipPurchase,
    Deal,
    Elimination,
    Entry,
    LedgerEntry,
    Penalty,
    Player,
    Tournament,
)


@dataclass(frozen=True)
class UndoLink:
    url: str
    done: bool
    """Taken back already (nothing to press)."""
    label: str = ""


API = "/api/v1/tournaments/{t}"
# action -> (permission, URL template, label); {t} the tournament, {id} the target, {e} an
# entry named in the entry's `after`.
KINDS: dict[str, tuple[str, str, object]] = {
    "entry.eliminate": ("floor", API + "/eliminations/{id}/undo", _("Undo")),
    "floor.move": ("floor", API + "/actions/{id}/undo", _("Undo")),
    "floor.break_table": ("floor", API + "/actions/{id}/undo", _("Undo")),
    "floor.final_table_redraw": ("floor", API + "/actions/{id}/undo", _("Undo")),
    "entry.register": ("desk", API + "/entries/{id}/refund", _("Undo (refund)")),
    "entry.unregister": ("desk", API + "/entries/{id}/refund/undo", _("Undo")),
    "entry.rebuy": ("desk", API + "/chip-purchases/{id}/undo", _("Undo (refund)")),
    "entry.addon": ("desk", API + "/chip-purchases/{id}/undo", _("Undo (refund)")),
    "penalty.warning": ("floor", API + "/penalties/{id}/undo", _("Undo")),
    "penalty.missed_hands": ("floor", API + "/penalties/{id}/undo", _("Undo")),
    "penalty.missed_rounds": ("floor", API + "/penalties/{id}/undo", _("Undo")),
    "penalty.disqualification": ("floor", API + "/penalties/{id}/undo", _("Undo")),
    "color_up.run": ("floor", API + "/color-ups/{id}/undo", _("Undo")),
    "color_up.confirm": ("floor", API + "/color-ups/{id}/undo", _("Undo")),
    "deal.make": ("director", API + "/deals/{id}/undo", _("Undo")),
    "flight.day_end": ("director", API + "/end-of-day/undo", _("Undo")),
    "prize.pay": ("desk", API + "/results/{e}/pay/undo", _("Undo")),
    "entry.absent": ("floor", API + "/entries/{id}/arrived", _("Arrived")),
    "player.merge": ("director", "/api/v1/players/{id}/merge/undo", _("Undo")),
    "entry.player_link_revoke": (
        "director",
        API + "/entries/{id}/player-link/revoke/undo",
        _("Undo"),
    ),
    "tournament.player_links_revoke": ("director", API + "/player-links/revoke/undo", _("Undo")),
    "seating.draw": ("director", API + "/draw/undo", _("Undo")),
    # the cash floor (tables/cash_undo): one route, by the audit entry itself ({a})
    **{
        action: (
            "desk" if action.startswith("cash.list") else "floor",
            "/api/v1/cash-undo/{a}",
            _("Undo"),
        )
        for action in (
            "cash.call",
            "cash.pass",
            "cash.seat",
            "cash.leave",
            "cash.list_join",
            "cash.list_leave",
            "cash.away",
            "cash.back",
            "cash.table_close",
        )
    },
}


def _eliminations(rows: list[AuditEntry]) -> dict[int, bool]:
    wanted = {(a.target_id, (a.after or {}).get("bust_group")) for a in rows}
    undone = {
        (e, g): u is not None
        for e, g, u in Elimination.objects.filter(
            entry_id__in={e for e, _g in wanted}, bust_group__in={g for _e, g in wanted}
        ).values_list("entry_id", "bust_group", "undone_at")
    }
    return {a.pk: undone.get((a.target_id, (a.after or {}).get("bust_group")), True) for a in rows}


def _by_target(model, done: Callable[[object], bool], fields: tuple[str, ...]):
    def check(rows: list[AuditEntry]) -> dict[int, bool]:
        found = {
            r[0]: done(r[1:])
            for r in model.objects.filter(pk__in={a.target_id for a in rows}).values_list(
                "pk", *fields
            )
        }
        return {a.pk: found.get(a.target_id, True) for a in rows}

    return check


def _prizes(rows: list[AuditEntry]) -> dict[int, bool]:
    numbers = dict(
        LedgerEntry.objects.filter(pk__in={a.target_id for a in rows}).values_list(
            "pk", "receipt_number"
        )
    )
    returned = set(
        LedgerEntry.objects.filter(
            receipt_number__in=[n + REFUND for n in numbers.values()]
        ).values_list("receipt_number", flat=True)
    )
    return {a.pk: numbers.get(a.target_id, "") + REFUND in returned for a in rows}


def _generations(model) -> Callable[[list[AuditEntry]], dict[int, bool | None]]:
    """A revocation of player links is undone once the generation it set has changed (undone,
    or revoked again); only the latest revocation of a target can be undone."""

    def check(rows: list[AuditEntry]) -> dict[int, bool | None]:
        current = dict(
            model.objects.filter(pk__in={a.target_id for a in rows}).values_list(
                "pk", "player_link_generation"
            )
        )
        return {
            a.pk: (a.after or {}).get("player_link_generation") != current.get(a.target_id)
            for a in rows
        }

    return check


def _cash(rows: list[AuditEntry]) -> dict[int, bool]:
    """A cash action is taken back once (its `cash.undo` entry names it)."""
    undone = set(
        AuditEntry.objects.filter(
            action="cash.undo", target_id__in=[a.pk for a in rows]
        ).values_list("target_id", flat=True)
    )
    return {a.pk: a.pk in undone for a in rows}


STATUS: dict[str, Callable[[list[AuditEntry]], dict[int, bool | None]]] = {
    "entry.eliminate": _eliminations,
    # A move called off (superseded: a late registration took its seat, its mover busted
    # first...) moved nobody: nothing to undo, no button (docs/rules.md §3.4).
    "floor": _by_target(
        FloorAction,
        lambda r: (
            None if r[0] == FloorAction.Status.SUPERSEDED else r[0] == FloorAction.Status.UNDONE
        ),
        ("status",),
    ),
    # A playing entry is refunded only until the start: after it, no button to be refused.
    "entry.register": _by_target(
        Entry,
        lambda r: True if r[0] == "unregistered" else None if r[0] != "waiting" and r[1] else False,
        ("status", "tournament__started_at"),
    ),
    "entry.unregister": _by_target(Entry, lambda r: r[0] != "unregistered", ("status",)),
    "entry.purchase": _by_target(ChipPurchase, lambda r: r[0] is not None, ("undone_at",)),
    "penalty": _by_target(Penalty, lambda r: r[0] is not None, ("undone_at",)),
    "color_up": _by_target(ColorUp, lambda r: r[0] == ColorUp.Status.UNDONE, ("status",)),
    "deal.make": _by_target(Deal, lambda r: r[0] is not None, ("undone_at",)),
    # A flight's end of day: undone once the flight plays again; no button after Day 2's draw.
    "flight.day_end": _by_target(
        Tournament,
        lambda r: True if r[0] != "finished" else None if r[1] is not None else False,
        ("status", "main_event__seats_drawn_at"),
    ),
    "prize.pay": _prizes,
    "cash": _cash,
    "entry.absent": _by_target(Entry, lambda r: r[0] is None, ("absent_since",)),
    "player.merge": _by_target(Player, lambda r: r[0] is None, ("merged_into_id",)),
    "entry.player_link_revoke": _generations(Entry),
    "tournament.player_links_revoke": _generations(Tournament),
    # The draw: undone while no seats are drawn; kept (no button) once the event has started.
    "seating.draw": _by_target(
        Tournament,
        lambda r: True if r[0] is None else None if r[1] is not None else False,
        ("seats_drawn_at", "started_at"),
    ),
}


def _status_group(action: str) -> str:
    if action in ("entry.rebuy", "entry.addon"):
        return "entry.purchase"
    head = action.split(".")[0]
    return head if head in ("floor", "penalty", "color_up", "cash") else action


def undo_links(entries: Iterable[AuditEntry], user) -> list[AuditEntry]:
    """The entries, each with `.undo`: an UndoLink, or None when it has no undo (or this user
    may not press it)."""
    rows = list(entries)
    groups: dict[str, list[AuditEntry]] = defaultdict(list)
    for a in rows:
        a.undo = None
        kind = KINDS.get(a.action)
        if kind and a.target_id is not None and roles.can(user, kind[0]):
            groups[_status_group(a.action)].append(a)
    for group, members in groups.items():
        done = STATUS[group](members)
        for a in members:
            _permission, template, label = KINDS[a.action]
            url = template.format(
                t=a.tournament_id, id=a.target_id, e=(a.after or {}).get("entry_id", ""), a=a.pk
            )
            if done[a.pk] is not None:  # None: nothing this list can offer now
                a.undo = UndoLink(url, done[a.pk], str(label))
    return rows


# What an audited action is about, in the reader's language (issue 32: the audit log showed raw
# codes such as `entry.eliminate`). An action's code is `<group>.<verb>`; the log's column and
# its filter name the group, the summary says what was done; the code itself stays in the row's
# tooltip for support and in the exports.
GROUPS = {
    "backup": pgettext_lazy("audit", "Backups"),
    "bounty": pgettext_lazy("audit", "Bounties"),
    "cash": pgettext_lazy("audit", "Cash games"),
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
