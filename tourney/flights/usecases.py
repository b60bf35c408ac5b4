"""A festival's main event: its flights, each flight's end of day (bag and tag), and the Day-2
draw of every bag (docs/rules.md §15)."""

import random
from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.clock.operations import (
    clock_pending_at,
    clock_restart_after_undo,
    clock_stop_at_finish,
)
from clocks.clock.selectors import clock_for, structure_periods
from clocks.domain.clock import level_numbers
from infra.gc_pause import collector_paused
from infra.randomness import BufferedSystemRandom
from tables.draw.operations import seats_draw_locked
from tables.models import Room
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound
from tourney.core.locks import tournament_lock
from tourney.domain.festival import (
    counts_difference,
    counts_missing,
    spread_order,
)
from tourney.domain.purchases import MONEY_FIELDS
from tourney.events.log import event_append
from tourney.flights.operations import bags_opened, day2_entries_kept
from tourney.flights.selectors import (
    bag_counts,
    day2_stacks,
    flights_of,
)
from tourney.models import Entry, Tournament
from tourney.tournaments.operations import room_tables_chosen, tournament_tables_create
from tourney.tournaments.selectors import tournament_rules, tournament_summary

# What a flight shares with its main event (issue: the structure, buy-in and payouts).
SHARED_FIELDS = (
    "structure_id",
    "starting_stack",
    "buy_in",
    "fee",
    "currency",
    "game",
    "game_limit",
    "house_rules",
    "rules_overrides",
    "waiting_list_enabled",
    "max_entries",
    "late_registration_level",
    "payout_structure_id",
    "day_end_level",
    *(f for f in MONEY_FIELDS if f != "guarantee"),
)


def _main_checked(main: Tournament) -> None:
    if main.main_event_id is not None:
        raise Conflict("flight_of_a_flight", _("A flight cannot have flights of its own."))
    if main.status != Tournament.Status.REGISTERING or main.seats_drawn_at is not None:
        raise Conflict(
            "main_event_started", _("Flights are added before the main event's Day 2 starts.")
        )
    if not main.is_main_event and Entry.objects.filter(tournament=main).exists():
        raise Conflict(
            "main_event_has_entries",
            _("This tournament has entries of its own: a main event takes entries in its flights."),
        )


def flight_create(
    *,
    actor,
    main_id: int,
    name: str,
    starts_at: datetime | None = None,
    room_id: int | None = None,
    table_numbers: Sequence[int] | None = None,
    day_end_level: int | None = None,
) -> Tournament:
    """A flight of the main event: a tournament of its own (desk, clock, tables, screens)
    with the main event's structure, buy-in, payouts and house rules."""
    name = " ".join((name or "").split())
    if not name or len(name) > 160:
        raise InvalidInput("invalid_name", _("A flight needs a name of 1 to 160 characters."))
    with transaction.atomic(durable=True):
        main = tournament_lock(main_id)
        _main_checked(main)
        room = Room.objects.filter(pk=room_id or main.room_id).first()
        if room is None:
            raise NotFound(
                "room_not_found", _("There is no room with id %(id)s.") % {"id": room_id}
            )
        room_tables, numbers = room_tables_chosen(room, table_numbers)
        flight = Tournament.objects.create(
            **{f: getattr(main, f) for f in SHARED_FIELDS},
            name=name,
            room=room,
            main_event=main,
            scheduled_start=starts_at,
        )
        if day_end_level is not None:
            flight.day_end_level = day_end_level
            flight.save(update_fields=["day_end_level"])
        tournament_tables_create(
            flight, room_tables, numbers, tournament_rules(flight).seats_per_table
        )
        if not main.is_main_event:
            main.is_main_event = True
            main.save(update_fields=["is_main_event"])
        audit_record(
            actor=actor,
            action="flight.create",
            summary=audit_text(
                gettext_noop("Flight %(flight)s of %(main)s created"),
                {"flight": name, "main": main.name},
            ),
            tournament=main,
            target=flight,
            after={"flight_id": flight.pk, "name": name, "table_numbers": numbers},
        )
        event_append(main, "flights", {"reason": "created", "flight_id": flight.pk})
    return flight


def flight_day_end(*, actor, tournament_id: int) -> dict:
    """Bag and tag (docs/rules.md §15.3): every player left must have a count; they are
    bagged with it, the clock stops and the flight is over. What the bags hold against the
    chips in play is returned and audited (a difference is the floor's to look into)."""
    with transaction.atomic(durable=True):
        flight = tournament_lock(tournament_id)
        if flight.main_event_id is None:
            raise Conflict("not_a_flight", _("Only a flight of a main event ends its day."))
        if flight.status != Tournament.Status.RUNNING:
            raise Conflict("flight_not_running", _("The flight is not being played."))
        left = dict(
            Entry.objects.filter(tournament=flight, status=Entry.Status.ACTIVE).values_list(
                "pk", "chips"
            )
        )
        missing = counts_missing(left, left)
        if missing:
            names = Entry.objects.filter(pk__in=missing).order_by("player__name")
            raise Conflict(
                "chip_counts_missing",
                _("Count these players' chips first: %(names)s")
                % {"names": ", ".join(e.player.name for e in names.select_related("player"))},
            )
        in_play = tournament_summary(flight).total_chips
        difference = counts_difference(list(left.values()), in_play)
        now = timezone.now()
        main = bags_opened(flight)
        Entry.objects.filter(pk__in=list(left)).update(status=Entry.Status.BAGGED)
        flight.status, flight.finished_at = Tournament.Status.FINISHED, now
        flight.save(update_fields=["status", "finished_at"])
        day2_entries_kept(main, actor, now)  # the bagged are Day 2's registered
        clock_stop_at_finish(actor=actor, tournament=flight)
        result = {
            "bagged": len(left),
            "chips_bagged": sum(left.values()),
            "chips_in_play": in_play,
            "difference": difference,
        }
        audit_record(
            actor=actor,
            action="flight.day_end",
            summary=audit_text(
                gettext_noop("End of day: %(n)s players bagged %(chips)s chips"),
                {"n": len(left), "chips": sum(left.values())},
            ),
            tournament=flight,
            target=flight,
            before={"status": "running"},
            after=result,
        )
        event_append(flight, "tournament", {"reason": "day_end", **result})
    return result


def flight_day_end_undo(*, actor, tournament_id: int) -> Tournament:
    """The end of the day taken back (a flight ended by mistake) until Day 2 is drawn: the
    bagged players play again in their seats with their counts, the clock goes on as if it
    had not stopped."""
    with transaction.atomic(durable=True):
        flight = tournament_lock(tournament_id)
        if flight.main_event_id is None or flight.status != Tournament.Status.FINISHED:
            raise Conflict("nothing_to_undo", _("This flight's day has not ended."))
        main = bags_opened(flight)
        n = Entry.objects.filter(tournament=flight, status=Entry.Status.BAGGED).update(
            status=Entry.Status.ACTIVE
        )
        flight.status, flight.finished_at = Tournament.Status.RUNNING, None
        flight.save(update_fields=["status", "finished_at"])
        day2_entries_kept(main, actor, timezone.now())
        clock_restart_after_undo(actor=actor, tournament=flight)
        audit_record(
            actor=actor,
            action="flight.day_end_undo",
            summary=audit_text(gettext_noop("End of day undone: %(n)s players back"), {"n": n}),
            tournament=flight,
            target=flight,
            before={"status": "finished"},
            after={"status": "running", "players": n},
        )
        event_append(flight, "tournament", {"reason": "day_end_undone"})
    return flight


def _day2_clock(actor, main: Tournament, flights: list[Tournament]) -> None:
    """Day 2's clock will start at the level after the flights' last of the day, when they
    set one (docs/rules.md §15.5)."""
    last = max((f.day_end_level for f in flights if f.day_end_level), default=None)
    if last is None or clock_for(main).status != "pending":
        return
    levels = level_numbers(structure_periods(main.structure_id))
    if last + 1 in levels:
        clock_pending_at(actor=actor, tournament=main, period_index=levels.index(last + 1))


def _day2_field(main: Tournament, actor, now) -> tuple[dict[int, int], int]:
    """Day 2's entries' stacks by entry id, and how many bags are set aside (a player's
    smaller): every change of a bag keeps one entry a player; a count that differs (a flight
    whose day ended before its bags were registered at the end of day: an installation
    upgraded) makes them here."""
    bags, players = bag_counts(main)
    stacks = day2_stacks(main)
    if players != len(stacks):
        day2_entries_kept(main, actor, now)
        stacks = day2_stacks(main)
    return stacks, bags - players


def day2_draw(*, actor, main_id: int, rng: random.Random | None = None) -> list[dict]:
    """Day 2's seat draw (docs/rules.md §15.5): the Day-2 entries the flights' ends of day
    registered (one a player, by the house's `flight_survivor`), each with its bag's chips,
    seated at random or with the biggest stacks spread (`day2_draw`). The flights must be
    over."""
    rng = rng or BufferedSystemRandom()
    with collector_paused(), transaction.atomic(durable=True):
        main = tournament_lock(main_id)
        if not main.is_main_event:
            raise Conflict("not_a_main_event", _("Only a main event with flights has a Day 2."))
        playing = [f.name for f in flights_of(main) if f.status != Tournament.Status.FINISHED]
        if playing:
            raise Conflict(
                "flights_not_finished",
                _("These flights have not ended their day: %(names)s")
                % {"names": ", ".join(playing)},
            )
        if main.seats_drawn_at is not None:
            raise Conflict("draw_already_done", _("The seats have been drawn already."))
        stacks, set_aside = _day2_field(main, actor, timezone.now())
        main.chips_carried = sum(stacks.values())
        main.save(update_fields=["chips_carried"])
        order = None
        if tournament_rules(main).day2_draw == "spread_stacks":
            order = spread_order(stacks)
        layout = seats_draw_locked(actor, main, rng, order)
        _day2_clock(actor, main, flights_of(main))
        audit_record(
            actor=actor,
            action="flight.day2_draw",
            summary=audit_text(
                gettext_noop("Day 2 drawn: %(n)s players with %(chips)s chips"),
                {"n": len(stacks), "chips": main.chips_carried},
            ),
            tournament=main,
            target=main,
            after={"players": len(stacks), "bags_set_aside": set_aside},
        )
    return layout
