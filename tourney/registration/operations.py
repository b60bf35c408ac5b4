"""Finishing places while the field still grows (docs/rules.md §11.6)."""

import random

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from tables.models import TournamentTable
from tables.seating.operations import entry_seat_late
from tourney.audit.log import audit_record, audit_text
from tourney.cage.operations import ledger_price_write
from tourney.core.errors import Conflict
from tourney.domain.receipts import receipt_number
from tourney.events.log import event_append
from tourney.models import AuditEntry, Elimination, Entry, Tournament
from tourney.registration.selectors import registration_open
from tourney.tournaments.selectors import entry_snapshot, tournament_capacity, tournament_rules


def places_shift(tournament: Tournament, entries: int = 1) -> int:
    """`entries` more entries joined the field: every standing bust-out finishes that many
    places lower. Inside the caller's transaction, the tournament row locked; returns how many
    bust-outs moved. Two statements at most, whatever the size of the field."""
    if tournament.status == Tournament.Status.REGISTERING:
        return 0  # nobody is out before the start
    moved = Elimination.objects.filter(tournament=tournament, undone_at__isnull=True).update(
        place=F("place") + entries, place_to=F("place_to") + entries
    )
    if moved:
        Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ELIMINATED, place__isnull=False
        ).update(place=F("place") + entries)
    return moved


def entry_record(
    actor, tournament: Tournament, entry: Entry, action: str, summary: str, before: dict, **after
) -> None:
    """An entry's change, once written: its audit entry `entry.<action>` (`summary` names the
    player as `%(name)s`; `after`: the snapshot and `after`) and its `entry` event."""
    snapshot = entry_snapshot(entry)
    name = entry.player.name
    audit_record(
        actor=actor,
        action=f"entry.{action}",
        summary=audit_text(summary, {"name": name}),
        tournament=tournament,
        target=entry,
        before=before,
        after={**snapshot, **after},
    )
    event_append(tournament, "entry", {"action": action, **snapshot, "player_name": name})


def entry_payment(
    tournament: Tournament, entry: Entry, method: str, cashier, now, sign: int, tail: str = ""
) -> None:
    """The entry's buy-in and fee paid in (`sign` +1) or refunded (-1), under its receipt
    number + `tail`."""
    ledger_price_write(
        tournament_id=tournament.pk,
        entry_id=entry.pk,
        prices=(tournament.buy_in, tournament.fee),
        sign=sign,
        method=method,
        cashier=cashier,
        at=now,
        receipt=receipt_number(tournament.pk, entry.number, tail),
    )


def table_for_waiting(tournament: Tournament, waiting: int, actor=None) -> bool:
    """The house opens a table for the waiting list (`alternates_new_table`, docs/rules.md
    §2.1): once that many wait and every table of the tournament in play is full, a table the
    floor broke earlier is free again in the room; it goes back into use (the next late seat
    opens it). True when one did."""
    wanted = tournament_rules(tournament).alternates_new_table
    if wanted is None or waiting < wanted or tournament.seats_drawn_at is None:
        return False
    table = (
        TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.CLOSED)
        .order_by("open_order")
        .first()
    )
    if table is None:
        return False
    table.status, table.closed_at = TournamentTable.Status.IDLE, None
    table.save(update_fields=["status", "closed_at"])
    audit_record(
        actor=actor,
        action="seating.table_for_waiting",
        summary=audit_text(
            gettext_noop("Table %(t)s opens again for %(n)s players on the waiting list"),
            {"t": table.number, "n": waiting},
        ),
        tournament=tournament,
        target=table,
        before={"status": TournamentTable.Status.CLOSED},
        after={"status": TournamentTable.Status.IDLE},
    )
    return True


def seated_late(tournament: Tournament, entry: Entry, rules, rng, now) -> bool:
    """`entry_seat_late`, False when no seat can be given though the seat count has room:
    the seats left are held by moves the floor has not confirmed that cannot be called off
    (docs/rules.md §3.4); the entry waits, and the move's confirmation seats it."""
    try:
        entry_seat_late(tournament, entry, rules, rng, now)
    except Conflict as exc:
        if exc.code != "tournament_full":
            raise
        return False
    return True


def waiting_promote(tournament: Tournament, actor, now, cause: int | None = None) -> list[Entry]:
    """Seat waiting-list entries in the order they joined it while there is room (a table
    opened for them first when the house says so). `cause`: the bust-out (elimination id)
    that freed the seat, recorded for its undo."""
    promoted: list[Entry] = []
    waiting = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.WAITING)
        .select_related("player")
        .order_by("waiting_since", "number")
    )
    if not waiting:
        return promoted
    capacity = tournament_capacity(tournament)
    playing = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if playing >= capacity and table_for_waiting(tournament, len(waiting), actor):
        capacity = tournament_capacity(tournament)
    rules = None
    for entry in waiting:
        if playing >= capacity:
            break
        entry.status = Entry.Status.ACTIVE
        if tournament.seats_drawn_at is not None:
            rules = rules or tournament_rules(tournament)
            if not seated_late(tournament, entry, rules, random.SystemRandom(), now):
                entry.status = Entry.Status.WAITING  # the seats left are held (§3.4)
                break
        entry.save()
        places_shift(tournament)
        playing += 1
        promoted.append(entry)
        entry_record(
            actor,
            tournament,
            entry,
            "promote",
            gettext_noop("%(name)s moved from the waiting list into the tournament"),
            {"status": "waiting"},
            cause_elimination_id=cause,
        )
    return promoted


def promote_waiting(tournament: Tournament, actor) -> list[Entry]:
    """Inside the caller's transaction (tournament locked): seat waiting-list entries in
    order while there is room (after a larger entry cap, more tables, a seat freed)."""
    return waiting_promote(tournament, actor, timezone.now())


def seats_freed(tournament: Tournament, actor, cause: int | None = None) -> list[Entry]:
    """Inside the caller's transaction: a bust-out, a disqualification or an absent player's
    elimination freed a seat. While entries may still come in, the first alternates take the
    free seats at once, in waiting order (docs/rules.md §2.1); the caller replans the floor."""
    if not registration_open(tournament):
        return []
    return waiting_promote(tournament, actor, timezone.now(), cause)


def promotions_undo(tournament: Tournament, actor, cause: int) -> list[Entry]:
    """Undo of the bust-out `cause`: the alternates it seated go back to the head of the
    waiting list (their place in it kept) while they still sit where they were seated, as if
    the seat had never been freed; an alternate who has moved or busted since keeps playing
    (docs/rules.md §2.1). Inside the caller's transaction."""
    records = AuditEntry.objects.filter(
        tournament=tournament, action="entry.promote", after__cause_elimination_id=cause
    ).values_list("target_id", "after")
    back: list[Entry] = []
    for entry_id, after in records:
        entry = (
            Entry.objects.select_related("player", "tournament_table")
            .filter(pk=int(entry_id), status=Entry.Status.ACTIVE)
            .first()
        )
        if entry is None or entry_snapshot(entry)["table"] != after.get("table"):
            continue
        if entry.seat != after.get("seat"):
            continue
        before = entry_snapshot(entry)
        entry.status = Entry.Status.WAITING
        entry.tournament_table, entry.seat, entry.waits_for_button = None, None, False
        entry.save(update_fields=["status", "tournament_table", "seat", "waits_for_button"])
        places_shift(tournament, -1)
        back.append(entry)
        entry_record(
            actor,
            tournament,
            entry,
            "promote_undo",
            gettext_noop("%(name)s back on the waiting list: the seat was not free"),
            before,
        )
    return back
