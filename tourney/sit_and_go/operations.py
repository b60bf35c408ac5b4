"""Sit-and-go writes inside a use case's transaction (docs/rules.md §19): the series' next
event opened on a free table, and its countdown started once its last seat is taken."""

import datetime
import random

from django.utils.translation import gettext_noop

from tables.domain.button import first_hand_blinds
from tables.domain.seating import draw_button
from tables.models import Table, TournamentTable
from tables.seating.operations import table_open
from tables.seating.selectors import blinds_fields
from tourney.audit.log import audit_record, audit_text
from tourney.events.log import event_append
from tourney.models import Entry, SitAndGoSeries, Tournament
from tourney.tournaments.operations import tournament_record


def event_overrides(overrides: dict, seats: int) -> dict:
    """A sit-and-go's house rules: the series' own, its one table of `seats` the only one."""
    sizes = ("seats_per_table", "single_table_seats", "final_table_size")
    return {**overrides, **dict.fromkeys(sizes, seats), "short_handed_final_table_size": seats}


def sng_event_open(actor, series: SitAndGoSeries, table: Table, now) -> Tournament:
    """The series' next event on `table`: its settings, one table of the series' seats in
    play at once (seats are drawn as players register), registration closing at the start,
    no waiting list."""
    number = series.events.count() + 1
    seats = series.seats
    tournament = tournament_record(
        actor=actor,
        name=f"{series.name} #{number}",
        structure_id=series.structure_id,
        starting_stack=series.starting_stack,
        buy_in=series.buy_in,
        fee=series.fee,
        currency=series.currency,
        room_id=series.room_id,
        house_rules=series.house_rules,
        rules_overrides=event_overrides(series.rules_overrides, seats),
        table_numbers=[table.number],
        waiting_list_enabled=False,
        max_entries=seats,
        late_registration_level=0,
        payout_structure_id=series.payout_structure_id,
        game=series.game,
        game_limit=series.game_limit,
    )
    tournament.sng_series = series
    tournament.seats_drawn_at = now
    tournament.save(update_fields=["sng_series", "seats_drawn_at"])
    row = TournamentTable.objects.get(tournament=tournament, table=table)
    table_open(row, now)
    row.seats, row.players = seats, 0
    row.save(update_fields=["status", "opened_at", "closed_at", "seats", "players"])
    event_append(tournament, "tournament", {"status": tournament.status, "sng_series": series.pk})
    return tournament


def sng_countdown_start(
    actor, tournament: Tournament, series: SitAndGoSeries, rng: random.Random, now
) -> None:
    """Every seat taken: the button is drawn by high card and the start is due after the
    series' countdown (the timers start it, clocks/tasks.py)."""
    row = TournamentTable.objects.select_related("table").get(
        tournament=tournament, status=TournamentTable.Status.OPEN
    )
    occupied = sorted(
        Entry.objects.filter(
            tournament=tournament, tournament_table=row, status=Entry.Status.ACTIVE
        ).values_list("seat", flat=True)
    )
    button = draw_button(occupied, rng)
    for name, value in blinds_fields(
        first_hand_blinds(button.button_seat, occupied, row.seats)
    ).items():
        setattr(row, name, value)
    row.button_draw = [{"seat": s, "card": c.code} for s, c in button.cards]
    row.save()
    tournament.auto_start_at = now + datetime.timedelta(seconds=series.countdown_seconds)
    tournament.save(update_fields=["auto_start_at"])
    starts_ms = int(tournament.auto_start_at.timestamp() * 1000)
    audit_record(
        actor=actor,
        action="sng.full",
        summary=audit_text(
            gettext_noop("%(name)s full: button at seat %(seat)s, the start in %(s)s s"),
            {"name": tournament.name, "seat": button.button_seat, "s": series.countdown_seconds},
        ),
        tournament=tournament,
        target=tournament,
        after={"auto_start_at_ms": starts_ms, "button_seat": button.button_seat},
    )
    event_append(
        tournament,
        "tournament",
        {"status": tournament.status, "starts_at_ms": starts_ms, "button_seat": button.button_seat},
    )
