"""Calling the clock on a player (docs/rules.md §9): house times, the final table, the countdown and
what happens at zero; time moved by time-machine."""

import pytest
import time_machine

from tests.conftest import numbered_players, seat_players
from tourney.models import Entry

pytestmark = pytest.mark.django_db

T0 = "2026-11-29 21:00:00 +01:00"


def call(api, tournament, table, seat, **extra):
    return api.post(
        f"/tournaments/{tournament.pk}/tables/{table}/clock-calls", {"seat": seat, **extra}
    )


def end(api, tournament, call_id, outcome):
    return api.post(f"/tournaments/{tournament.pk}/clock-calls/{call_id}/end", {"outcome": outcome})


def test_mirage_final_table_clock_is_60_seconds_then_check_without_a_bet(api, tournament):
    tournament.house_rules = "mirage"
    tournament.save(update_fields=["house_rules"])
    seat_players(api, tournament, numbered_players(6))
    seat = Entry.objects.filter(tournament=tournament).first().seat
    with time_machine.travel(T0, tick=False) as traveller:
        early = call(api, tournament, 1, seat, elapsed_seconds=60)
        assert early.status_code == 409 and early.json()["code"] == "clock_call_too_early"
        response = call(api, tournament, 1, seat, elapsed_seconds=95)
        assert response.status_code == 201, response.json()
        row = response.json()
        assert row["final_table"] is True and row["seconds"] == 60
        assert row["at_expiry"] == {"facing_bet": "fold", "no_bet": "check"}
        assert call(api, tournament, 1, seat).json()["code"] == "clock_call_running"
        listed = api.get(f"/tournaments/{tournament.pk}/clock-calls").json()
        assert [c["id"] for c in listed] == [row["id"]]
        traveller.shift(59)
        not_yet = end(api, tournament, row["id"], "expired")
        assert not_yet.status_code == 409 and not_yet.json()["code"] == "clock_call_not_expired"
        traveller.shift(1)  # exactly at zero: acting still counts (docs/rules.md §9.5 ex. 3)
        acted = end(api, tournament, row["id"], "acted")
        assert acted.status_code == 200 and acted.json()["outcome"] == "acted"
        assert api.get(f"/tournaments/{tournament.pk}/clock-calls").json() == []


def test_tda_clock_has_a_closing_countdown_and_expires(api, tournament):
    tournament.house_rules = "tda2024"
    tournament.save(update_fields=["house_rules"])
    seat_players(api, tournament, numbered_players(12))
    entry = Entry.objects.filter(tournament=tournament, tournament_table__number=1).first()
    with time_machine.travel(T0, tick=False) as traveller:
        row = call(api, tournament, 1, entry.seat).json()
        assert (row["seconds"], row["countdown_seconds"]) == (25, 5)
        assert row["final_table"] is False and row["player_name"] == entry.player.name
        traveller.shift(27)
        listed = api.get(f"/tournaments/{tournament.pk}/clock-calls").json()[0]
        assert listed["phase"] == "countdown" and listed["remaining_ms"] == 3_000
        traveller.shift(4)
        late = end(api, tournament, row["id"], "acted")
        assert late.status_code == 409 and late.json()["code"] == "clock_call_expired"
        assert end(api, tournament, row["id"], "expired").json()["outcome"] == "expired"


def test_clock_call_refuses_an_empty_seat_and_a_bad_outcome(api, tournament):
    seat_players(api, tournament, numbered_players(4))
    taken = set(Entry.objects.filter(tournament=tournament).values_list("seat", flat=True))
    empty = next(s for s in range(1, 11) if s not in taken)
    response = call(api, tournament, 1, empty)
    assert response.status_code == 422 and response.json()["code"] == "seat_empty"
    assert call(api, tournament, 7, 1).status_code == 404
    row = call(api, tournament, 1, min(taken)).json()
    assert end(api, tournament, row["id"], "maybe").status_code == 422
    assert end(api, tournament, row["id"], "cancelled").json()["outcome"] == "cancelled"


def test_only_a_player_present_at_the_table_calls_the_clock(api, director, tournament):
    """Veszprém 002:240 (issue 31 item 10): the caller's seat is recorded; an empty seat, an
    away player and the player himself are refused, and nothing is called."""
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from tables.models import ClockCall

    seat_players(api, tournament, numbered_players(6))
    seats = list(
        Entry.objects.filter(tournament=tournament).order_by("seat").values_list("seat", flat=True)
    )
    called, asker, away = seats[0], seats[1], seats[2]
    Entry.objects.filter(tournament=tournament, seat=away).update(absent_since=timezone.now())
    empty = next(s for s in range(1, 11) if s not in seats)
    for caller, code in (
        (called, "clock_caller_is_the_player"),
        (away, "clock_caller_not_at_table"),
        (empty, "clock_caller_not_at_table"),
    ):
        refused = call(api, tournament, 1, called, caller_seat=caller)
        assert refused.status_code == 422 and refused.json()["code"] == code
    assert not ClockCall.objects.exists()
    row = call(api, tournament, 1, called, caller_seat=asker).json()
    assert row["caller_seat"] == asker
    end(api, tournament, row["id"], "cancelled")

    # The dealer page's form: the caller, and Mirage's minimum ticked or not (90 s).
    tournament.house_rules = "mirage"
    tournament.save(update_fields=["house_rules"])
    client = Client()
    client.force_login(director)
    url = reverse("tables:floor_clock_call_start", args=[tournament.pk])
    page = client.get(reverse("tables:dealer", args=[tournament.pk, 1])).content.decode()
    assert 'name="minimum_taken"' in page and 'name="caller_seat"' in page
    client.post(url, {"table": 1, "seat": called, "caller_seat": asker})
    assert not ClockCall.objects.filter(outcome="").exists()  # too early: not ticked
    client.post(url, {"table": 1, "seat": called, "caller_seat": asker, "minimum_taken": "on"})
    made = ClockCall.objects.get(outcome="")
    assert (made.seat, made.caller_seat) == (called, asker)
