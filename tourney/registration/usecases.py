"""Registration at the desk: entries, the money ledger and the waiting list."""

import random
from collections.abc import Sequence

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from infra.db.write_batch import WriteBatch
from tables.floor.follow import floor_follow
from tourney.audit.log import audit_entry, audit_record, audit_text
from tourney.cage.operations import ledger_price_rows
from tourney.core.errors import Conflict, InvalidInput, NotFound
from tourney.core.locks import tournament_lock, tournament_lock_reading
from tourney.domain.festival import flight_entry_refusal
from tourney.domain.receipts import REFUND, receipt_number, repeat_tail
from tourney.events.log import event_new
from tourney.flights.selectors import flight_standing
from tourney.models import ChipPurchase, Entry, LedgerEntry, Player, Tournament
from tourney.players.selectors import member, player_search_text, player_tournament_ban
from tourney.registration.operations import (
    entry_payment,
    entry_record,
    places_shift,
    seated_late,
    table_for_waiting,
    waiting_promote,
)
from tourney.registration.selectors import (
    OPEN_FOR_REGISTRATION,
    RegistrationFacts,
    late_refund_open,
    refunds_of,
    registration_facts_of,
    registration_facts_query,
    registration_window,
)
from tourney.satellites.selectors import satellite_refuses
from tourney.tickets.operations import ticket_for_entry, ticket_given_back, ticket_use
from tourney.tournaments.selectors import entry_of, entry_snapshot, tournament_rules


def _refuse_banned(player: Player, tournament: Tournament, now) -> None:
    ban = player_tournament_ban(player, tournament, now)
    until = (
        _("until %(date)s") % {"date": timezone.localtime(ban.ends_at).strftime("%Y-%m-%d %H:%M")}
        if ban.ends_at
        else _("from the %(season)s season") % {"season": ban.season.name}
        if ban.season_id
        else _("until further notice")
    )
    raise Conflict(
        "player_banned",
        _("%(name)s is banned %(until)s: %(reason)s")
        % {"name": player.name, "until": until, "reason": ban.reason},
    )


def _check_reentry(tournament: Tournament, player: Player, out_before: int) -> None:
    """A player whose earlier entries are out enters again (TDA 8-A: a new entry, a new random
    seat, a full stack, the full price) up to the house rules' `reentry_max` re-entries."""
    allowed = tournament_rules(tournament).reentry_max
    if allowed == 0:
        raise Conflict(
            "reentry_not_allowed",
            _("%(name)s is out, and this tournament has no re-entries.") % {"name": player.name},
        )
    if out_before > allowed:
        raise Conflict(
            "reentry_limit",
            _("%(name)s has used the %(n)s re-entries this tournament allows.")
            % {"name": player.name, "n": allowed},
        )


def entry_register(
    *,
    actor,
    tournament_id: int,
    player_id: int,
    method: str = LedgerEntry.Method.CASH,
    rng: random.Random | None = None,
    ticket_id: int | None = None,
) -> Entry:
    """Register a player: take the buy-in and fee, then seat them or put them on the waiting list.
    `ticket_id`: he pays with a satellite's ticket for this event (no cash; docs/rules.md §17.4).

    Before the draw the entry has no seat; after it, a late entry gets a random seat at once.
    The use case (docs/architecture.md, "A registration"): lock, check, place, write, follow.
    """
    if ticket_id is not None:
        method = LedgerEntry.Method.TICKET
    elif method not in LedgerEntry.Method.values or method == LedgerEntry.Method.TICKET:
        raise InvalidInput("invalid_method", _("Payment is cash, card or other."))
    with transaction.atomic(durable=True):
        # The lock and what registration checks go together (one round trip on PostgreSQL),
        # so bans are looked up as of just before the lock; the rows are written as of after.
        asked_at = timezone.now()
        tournament, row = tournament_lock_reading(
            tournament_id, *registration_facts_query(tournament_id, player_id, asked_at)
        )
        now = timezone.now()
        facts = _registration_checked(tournament, player_id, registration_facts_of(row), asked_at)
        ticket = None if ticket_id is None else ticket_for_entry(tournament, player_id, ticket_id)
        reentry = facts.out_before > 0
        full, waiting = _entry_room(tournament, facts, actor, now)
        entry = Entry(
            id=facts.entry_id,
            tournament=tournament,
            player=facts.player,
            number=(facts.last_number or 0) + 1,
            status=Entry.Status.WAITING if full else Entry.Status.ACTIVE,
            created_at=now,
            created_by=actor if actor is not None and actor.is_authenticated else None,
            waiting_since=now if full else None,
        )
        if not full and tournament.seats_drawn_at is not None:
            rules = tournament_rules(tournament)
            if not seated_late(tournament, entry, rules, rng or random.SystemRandom(), now):
                if not tournament.waiting_list_enabled:
                    raise Conflict(
                        "tournament_full",
                        _("Every seat is taken and this tournament has no waiting list."),
                    )
                full, entry.status, entry.waiting_since = True, Entry.Status.WAITING, now
        _register_writes(tournament, entry, facts.player, method, full, reentry, actor, now)
        if ticket is not None:
            ticket_use(ticket, entry, actor, now)
        _registration_follow(tournament, entry, waiting, actor, now)
    return entry


def entries_register_bulk(*, actor, tournament_id: int, names: Sequence[str]) -> int:
    """New players `names`, each registered and paid in cash, in one transaction: for a
    developer's field of thousands (the simulator). The same rows as `entry_register` (entry
    numbers in order, the buy-in and fee under each entry's receipt number) without the
    checks, seats or waiting list, one audit entry for the lot and no events. Before the draw
    only; returns how many entries it wrote."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        _main_event_refusal(tournament)
        if tournament.status != Tournament.Status.REGISTERING or tournament.seats_drawn_at:
            raise Conflict(
                "registration_closed",
                _("Registration is closed: the tournament is %(status)s.")
                % {"status": tournament.get_status_display().lower()},
            )
        now = timezone.now()
        players = []
        for name in names:
            fields = {"name": name, "nickname": "", "phone": ""}
            players.append(Player(**fields, search_text=player_search_text(fields)))
        Player.objects.bulk_create(players, batch_size=2_000)
        first = (
            Entry.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"] or 0
        ) + 1
        entries = Entry.objects.bulk_create(
            (
                Entry(
                    tournament=tournament,
                    player=player,
                    number=number,
                    status=Entry.Status.ACTIVE,
                    created_at=now,
                    created_by=actor,
                )
                for number, player in enumerate(players, start=first)
            ),
            batch_size=2_000,
        )
        LedgerEntry.objects.bulk_create(
            (
                row
                for entry in entries
                for row in ledger_price_rows(
                    tournament_id=tournament.pk,
                    entry_id=entry.pk,
                    prices=(tournament.buy_in, tournament.fee),
                    sign=+1,
                    method=LedgerEntry.Method.CASH,
                    cashier=actor,
                    at=now,
                    receipt=receipt_number(tournament.pk, entry.number),
                )
            ),
            batch_size=2_000,
        )
        audit_record(
            actor=actor,
            action="simulation.register",
            summary=audit_text("Simulation registered %(n)s players", {"n": len(entries)}),
            tournament=tournament,
            target=tournament,
            after={"entries": len(entries), "paid_each": tournament.entry_price},
        )
    return len(entries)


def _registration_checked(
    tournament: Tournament, player_id: int, facts: RegistrationFacts | None, now
) -> RegistrationFacts:
    """What registration read under the lock, once every refusal is ruled out: registration
    closed, no such player, a ban, a disqualification, a live entry, re-entries used up."""
    _main_event_refusal(tournament)
    if tournament.status not in OPEN_FOR_REGISTRATION:
        raise Conflict(
            "registration_closed",
            _("Registration is closed: the tournament is %(status)s.")
            % {"status": tournament.get_status_display().lower()},
        )
    window = registration_window(tournament)
    if window is not None and window.passed:
        raise Conflict(
            "registration_closed",
            _("Registration closed when the clock started: this event has no late registration.")
            if window.level == 0
            else _("Late registration closed at the end of level %(level)s.")
            % {"level": window.level},
        )
    if facts is None:
        raise NotFound(
            "player_not_found", _("There is no player with id %(id)s.") % {"id": player_id}
        )
    player = facts.player
    if facts.banned:
        _refuse_banned(player, tournament, now)
    if tournament_rules(tournament).membership_required and not member(player):
        raise Conflict(
            "membership_required",
            _(
                "%(name)s is not a member yet: record his membership number and that he has "
                "read the house rules, then register him."
            )
            % {"name": player.name},
        )
    if tournament.satellite and satellite_refuses(tournament, player.pk):
        raise Conflict(
            "holds_a_seat",
            _(
                "%(name)s holds a seat of the target event already: this satellite does not "
                "take him."
            )
            % {"name": player.name},
        )
    if facts.disqualified:
        raise Conflict(
            "player_disqualified",
            _("%(name)s was disqualified from this tournament.") % {"name": player.name},
        )
    if facts.live_number is not None:
        raise Conflict(
            "already_registered",
            _("%(name)s is already registered (entry %(number)s).")
            % {"name": player.name, "number": facts.live_number},
        )
    if facts.out_before > 0:
        _check_reentry(tournament, player, facts.out_before)
    if tournament.main_event_id is not None:
        _check_flights(tournament, player)
    return facts


def _main_event_refusal(tournament: Tournament) -> None:
    if tournament.is_main_event:
        raise Conflict(
            "register_in_a_flight",
            _("A main event takes its entries in its flights: register the player in one."),
        )


def _check_flights(tournament: Tournament, player: Player) -> None:
    """A flight's entry (docs/rules.md §15.2): one flight at a time, and no later flight
    after a bag where the house says so."""
    bagged, playing = flight_standing(tournament, player.pk)
    code = flight_entry_refusal(
        tournament_rules(tournament).flight_survivor,
        bagged_elsewhere=bagged,
        playing_elsewhere=playing,
    )
    if code == "playing_another_flight":
        raise Conflict(
            code,
            _("%(name)s is registered in another flight of this event.") % {"name": player.name},
        )
    if code == "already_bagged":
        raise Conflict(
            code,
            _("%(name)s has bagged chips in another flight: this event allows one bag.")
            % {"name": player.name},
        )


def _entry_room(tournament: Tournament, facts: RegistrationFacts, actor, now) -> tuple[bool, int]:
    """(full, how many wait): whether the new entry waits. Seats free while players wait (a
    seat unblocked, a larger cap) go to them first, in their order, and the new entry queues
    only behind a list still waiting; refused when full without a waiting list."""
    seats = facts.seats
    if tournament.max_entries:  # as tournament_capacity
        seats = min(seats, tournament.max_entries)
    waiting, playing = facts.waiting, facts.playing
    if waiting and playing < seats and tournament.seats_drawn_at is not None:
        moved_up = len(waiting_promote(tournament, actor, now))
        waiting, playing = waiting - moved_up, playing + moved_up
    full = waiting > 0 or playing >= seats
    if full and not tournament.waiting_list_enabled:
        raise Conflict(
            "tournament_full", _("Every seat is taken and this tournament has no waiting list.")
        )
    return full, waiting


def _registration_follow(tournament: Tournament, entry: Entry, waiting: int, actor, now) -> None:
    """What follows a new entry: the places of those already out shift, a table may open for
    the waiting list, and a late entry's seat may open a table or tip the balance."""
    if entry.status == Entry.Status.ACTIVE:
        places_shift(tournament)  # everyone already out finished one place lower
    elif tournament.seats_drawn_at is not None and table_for_waiting(
        tournament, waiting + 1, actor
    ):
        waiting_promote(tournament, actor, now)  # a table for the list, places shifted
        entry.refresh_from_db()
    if entry.tournament_table_id is not None:
        # A late entry can open a table or tip the balance (docs/rules.md §5.1).
        floor_follow(actor=actor, tournament=tournament)


def _register_writes(
    tournament: Tournament,
    entry: Entry,
    player: Player,
    method: str,
    full: bool,
    reentry: bool,
    actor,
    now,
) -> None:
    """The entry, its buy-in and fee, its audit entry and its event, sent together (one round
    trip on PostgreSQL, where the entry's id was taken beforehand; infra/db/write_batch.py)."""
    batch = WriteBatch()
    batch.insert(entry)
    if entry.pk is None:  # the database numbers it: the rows below name it
        batch.flush()
    batch.insert_rows(  # the buy-in and the fee: one statement
        ledger_price_rows(
            tournament_id=tournament.pk,
            entry_id=entry.pk,
            prices=(tournament.buy_in, tournament.fee),
            sign=+1,
            method=method,
            cashier=entry.created_by,
            at=now,
            receipt=receipt_number(tournament.pk, entry.number),
        )
    )
    snapshot = entry_snapshot(entry)
    summary = (
        gettext_noop("%(name)s joined the waiting list")
        if full
        else gettext_noop("Re-entry of %(name)s")
        if reentry
        else gettext_noop("Registered %(name)s")
    )
    after = {**snapshot, "paid": tournament.entry_price, "method": method, "reentry": reentry}
    batch.insert(
        audit_entry(
            actor=actor,
            action="entry.register",
            summary=audit_text(summary, {"name": player.name}),
            tournament=tournament,
            target=entry,
            after=after,
        )
    )
    payload = {"action": "register", **snapshot, "player_name": player.name, "reentry": reentry}
    batch.insert(event_new(tournament, "entry", payload))
    batch.flush()


@transaction.atomic(durable=True)
def entry_unregister(
    *, actor, tournament_id: int, entry_id: int, method: str | None = None
) -> Entry:
    """Unregister before the start and refund buy-in and fee (by `method`; default: as paid);
    the waiting list moves up. `entry_refund_undo` takes it back."""
    if method is not None and method not in LedgerEntry.Method.values:
        raise InvalidInput("invalid_method", _("Payment is cash, card or other."))
    if method == LedgerEntry.Method.TICKET:
        method = None  # a ticket is refunded as it was paid: the ticket goes back, no cash
    tournament = tournament_lock(tournament_id)
    entry = entry_of(tournament, entry_id)
    if entry.status == Entry.Status.UNREGISTERED:
        raise Conflict("already_unregistered", _("This entry has been refunded already."))
    if entry.day1_entry_id is not None:
        raise Conflict(
            "day2_entry",
            _("A Day-2 entry is a flight's bag: undo that flight's end of day instead."),
        )
    late = tournament.status == Tournament.Status.RUNNING and late_refund_open(tournament, entry)
    if entry.status == Entry.Status.ELIMINATED or (
        tournament.status != Tournament.Status.REGISTERING
        and entry.status == Entry.Status.ACTIVE
        and not late
    ):
        raise Conflict(
            "tournament_started",
            _("The tournament has started: a playing entry can no longer be refunded."),
        )
    if late and ChipPurchase.objects.filter(entry=entry, undone_at__isnull=True).exists():
        raise Conflict(
            "entry_has_purchases",
            _("He has bought chips since: undo the rebuy or add-on first."),
        )
    before = entry_snapshot(entry)
    now = timezone.now()
    paid = LedgerEntry.objects.filter(entry=entry, amount__gt=0).values_list("method", flat=True)
    paid_method = paid.first() or LedgerEntry.Method.CASH
    if paid_method != LedgerEntry.Method.TICKET:  # a ticket's entry gets its ticket back
        paid_method = method or paid_method
    entry.status = Entry.Status.UNREGISTERED
    entry.tournament_table = None
    entry.seat = None
    entry.ended_at = now
    entry.save(update_fields=["status", "tournament_table", "seat", "ended_at"])
    if paid_method == LedgerEntry.Method.TICKET:
        ticket_given_back(entry, actor, now)  # the refund is the ticket, his to use again
    refunds_before = refunds_of(entry).order_by().values("receipt_number").distinct().count()
    entry_payment(
        tournament,
        entry,
        paid_method,
        actor if actor and actor.is_authenticated else None,
        now,
        -1,
        repeat_tail(REFUND, refunds_before),
    )
    entry_record(
        actor,
        tournament,
        entry,
        "unregister",
        gettext_noop("Unregistered and refunded %(name)s"),
        before,
        refunded=tournament.entry_price,
        method=paid_method,
    )
    waiting_promote(tournament, actor, now)
    if late:  # his seat is free: balancing or a table break may follow (docs/rules.md §2.2)
        floor_follow(actor=actor, tournament=tournament)
    return entry
