"""The tournament simulator (tables/devtools/simulation.py): a small field played to one winner
through the real services, with the invariants the floor must keep."""

import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command

from tables.devtools.simulation import simulate
from tables.devtools.simulation_floor import next_big_blind_entry
from tables.devtools.simulation_results import SimulationConfig, paid_places, smallest_wait
from tables.models import FloorAction, TournamentTable
from tests.conftest import numbered_players, seat_players
from tourney.models import Elimination, Entry, Tournament
from tourney.tournaments.selectors import tournament_rules

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def assert_finished_correctly(result, players: int) -> None:
    """One winner, places 1..N each held by as many players as share it, nobody lost."""
    tournament = Tournament.objects.get(pk=result.tournament_id)
    assert tournament.status == Tournament.Status.FINISHED
    entries = Entry.objects.filter(tournament=tournament)
    assert entries.count() == players
    statuses = Counter(entries.values_list("status", flat=True))
    assert statuses == {Entry.Status.ACTIVE: 1, Entry.Status.ELIMINATED: players - 1}
    winner = entries.get(status=Entry.Status.ACTIVE)
    assert winner.pk == result.winner_entry_id and winner.place == 1
    # Each standing elimination covers its place range; together with the winner they tile
    # 1..N, and a shared range is held by exactly as many players as it spans.
    standing = Elimination.objects.filter(tournament=tournament, undone_at__isnull=True)
    ranges = Counter(standing.values_list("place", "place_to"))
    covered = [1]
    for (place, place_to), holders in ranges.items():
        assert place_to - place + 1 == holders, (place, place_to, holders)
        covered.extend(range(place, place_to + 1))
    assert sorted(covered) == list(range(1, players + 1))
    by_entry = dict(standing.values_list("entry_id", "place"))
    for entry_id, place in entries.exclude(pk=winner.pk).values_list("pk", "place"):
        assert by_entry[entry_id] == place
    # Nobody is left seated at a closed table, and one table is open: the final table.
    assert TournamentTable.objects.filter(tournament=tournament, status="open").count() == 1
    assert not FloorAction.objects.filter(tournament=tournament, status="pending").exists()


@pytest.mark.parametrize("house_rules", ["rimoc", "tda2024"])
def test_a_small_field_plays_down_to_one_winner(house_rules):
    config = SimulationConfig(
        players=30, seed=7, house_rules=house_rules, undo_rate=0.15, check_every=5
    )
    result = simulate(config)

    assert_finished_correctly(result, 30)
    assert result.players_busted == 29 and result.winner_name
    # The invariants (a seat held once, no lost player, tables <= needed, places) were checked
    # every 5 bust-outs and at the end.
    assert result.invariant_checks >= result.bust_outs // 5
    size = tournament_rules(Tournament.objects.get(pk=result.tournament_id)).final_table_size
    # The final table forms when the field reaches its size (one fewer if the hand that
    # brought it busted two players from size + 1).
    assert result.final_table_players == size or (
        result.final_table_cause_busts == 2 and result.final_table_players == size - 1
    )
    assert result.final_table_seats == size
    assert result.moves.redraw_moves == result.final_table_players
    assert result.moves.table_breaks >= 2  # 4 tables, then 3, 2, then the redraw
    assert result.moves.worst_position == result.moves.worst_checked
    assert result.undos > 0 and len(result.undo_ms) >= result.undos
    assert len(result.record_ms) == result.bust_outs + result.undos
    assert result.hands > result.bust_outs
    assert result.plan_ms and result.replan_ms and result.levels_advanced > 0


def test_hand_for_hand_near_the_money():
    """20 % paid of 60: hand-for-hand from 15 players left (two tables) to 12."""
    config = SimulationConfig(
        players=60, seed=11, hand_for_hand=True, paid_fraction=0.2, undo_rate=0.0
    )
    result = simulate(config)

    assert_finished_correctly(result, 60)
    assert paid_places(60, 0.2) == 12
    assert result.h4h_started_at_players in (13, 14, 15)
    assert result.h4h_ended_at_players is not None and result.h4h_ended_at_players <= 12
    assert result.h4h_hands >= 1
    tournament = Tournament.objects.get(pk=result.tournament_id)
    assert tournament.hand_for_hand is False
    assert Elimination.objects.filter(tournament=tournament, h4h_hand__isnull=False).exists()


def test_the_command_keeps_the_tournament_when_asked():
    from io import StringIO

    out = StringIO()
    call_command("simulate", "--players", "12", "--seed", "3", "--quiet", "--keep", stdout=out)
    text = out.getvalue()
    assert "Winner: Sim " in text and "Bust-outs" in text and "eliminations_record" in text
    assert Tournament.objects.get(name__startswith="Simulation 12 ").status == "finished"


def test_the_command_plays_in_a_throwaway_database_by_default(tmp_path):
    """Issue 13: no "simulator" director or "Simulation room" left in the venue's lists. The
    configured database is never even created: the run had a database of its own."""
    venue = tmp_path / "venue.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = f"sqlite:///{venue}"
    done = subprocess.run(
        [sys.executable, "manage.py", "simulate", "--players", "12", "--seed", "3", "--quiet"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Winner: Sim " in done.stdout and "throwaway database" in done.stdout
    assert not venue.exists() or venue.stat().st_size == 0


@pytest.mark.parametrize(
    ("seats", "prev_bb", "seated", "expected"),
    [
        # docs/rules.md §5.9 example 1: T2 seats 1, 2, 3, 5, 7, 9; prevBB 3: s4 comes before the BB.
        (9, 3, {1, 2, 3, 5, 7, 9}, 0),
        # Example 2: T3 seats 1, 2, 4, 5, 7, 8, 10; last BB 4, next BB 5: s6 waits 1 hand.
        (10, 4, {1, 2, 4, 5, 7, 8, 10}, 1),
        # Only prevBB free (the next small blind): used anyway, after a full orbit.
        (4, 2, {1, 3, 4}, 3),
        (3, 1, {1, 2, 3}, None),
    ],
)
def test_smallest_wait_follows_rules_section_5(seats, prev_bb, seated, expected):
    assert smallest_wait(seats, prev_bb, seated) == expected


def test_the_floor_names_the_next_big_blind(api, tournament):
    seat_players(api, tournament, numbered_players(16))
    table = TournamentTable.objects.get(tournament=tournament, number=1)
    occupied = dict(
        Entry.objects.filter(tournament_table=table, status="active").values_list("seat", "pk")
    )
    after_bb = sorted(s for s in occupied if s > table.big_blind_seat) or sorted(occupied)
    named = next_big_blind_entry(tournament.pk, 1, random.Random(1))
    assert named == occupied[after_bb[0]]
    # Button not known: any player at the table.
    TournamentTable.objects.filter(pk=table.pk).update(button_seat=None, big_blind_seat=None)
    assert next_big_blind_entry(tournament.pk, 1, random.Random(1)) in occupied.values()
    assert next_big_blind_entry(tournament.pk, 99, random.Random(1)) is None
