"""The floor over random sequences of bust-outs, hand reports, late entries, undos and
confirmations (docs/rules.md §5, §6, §7 and §11), driven through the services.

After every step: nobody is lost, no seat is used twice (a seat held for a mover not named
yet included), places stay a partition, never more tables than needed, the final table forms
exactly at its size, and unless a mover is still to be named the tables are balanced (every
service replans). Every move planned after a bust or a hand takes the source table's next big
blind. What the machine found is kept as plain tests in test_floor_found_examples.py.
"""

import os
import random
from collections import Counter, defaultdict

import pytest
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import tables.floor.operations as floor_services
import tourney.eliminations.follow as eliminations_follow
from tables.domain.button import next_big_blind_seat
from tables.domain.floor_field import tables_wanted
from tables.domain.floor_rules import floor_rules
from tables.floor.selectors import multi_table_start
from tables.floor.usecases import floor_action_done
from tables.hands.usecases import hand_finished_with_busts, hand_report
from tables.models import FloorAction, TournamentTable
from tables.seating.operations import held_seats
from tables.seating.selectors import table_blinds, table_players_drift
from tests.factories import register, started_tournament
from tourney.eliminations.usecases import elimination_undo, eliminations_record
from tourney.models import AuditEntry, Elimination, Entry, Tournament
from tourney.tournaments.selectors import tournament_rules

pytestmark = pytest.mark.django_db

PROFILES = ("rimoc", "tda2024", "doyle")
STACKS = (1_000, 2_000, 5_000)  # few values, so same-hand busts often tie
MAX_LATE_ENTRIES = 20
OPEN = TournamentTable.Status.OPEN
ACTIVE = Entry.Status.ACTIVE
PENDING = FloorAction.Status.PENDING


class PlannerRandom:
    """Stands in for the `random` module in tables.floor.operations, whose floor_replan falls
    back to `random.SystemRandom()` when a caller (hand_report, floor_action_done, a late
    entry) passes no rng: every draw then comes from the example's seeded generator, so a
    failure replays and shrinks."""

    current = random.Random(0)

    @classmethod
    def SystemRandom(cls) -> random.Random:
        return cls.current


def clockwise_after(seat: int, seats: int) -> list[int]:
    return [(seat + i - 1) % seats + 1 for i in range(1, seats + 1)]


class FloorMachine(RuleBasedStateMachine):
    """One tournament per example, inside a savepoint rolled back at teardown."""

    director = None  # set by the test (pytest fixtures)
    structure = None

    def __init__(self) -> None:
        super().__init__()
        self.savepoint = transaction.savepoint()
        self.tournament: Tournament | None = None

    def teardown(self) -> None:
        transaction.savepoint_rollback(self.savepoint)

    # --- setup ---------------------------------------------------------------------------

    @initialize(
        profile=st.sampled_from(PROFILES),
        players=st.integers(12, 40),
        seed=st.integers(0, 2**32 - 1),
    )
    def start(self, profile: str, players: int, seed: int) -> None:
        self.rng = random.Random(seed)
        PlannerRandom.current = self.rng
        self.tournament = started_tournament(
            self.director, self.structure, players, profile, self.rng
        )
        self.tid = self.tournament.pk
        self.rules = floor_rules(tournament_rules(self.tournament))
        self.registered = players
        self.late_entries = 0

    def _register(self) -> Entry:
        self.registered += 1
        return register(self.director, self.tournament, self.rng)

    # --- reading the state ---------------------------------------------------------------

    def _status(self) -> str:
        return Tournament.objects.values_list("status", flat=True).get(pk=self.tid)

    def _open_tables(self) -> dict[int, TournamentTable]:
        return {
            t.number: t for t in TournamentTable.objects.filter(tournament_id=self.tid, status=OPEN)
        }

    def _seating(self) -> dict[int, dict[int, int]]:
        """Open table number -> {seat: entry id}."""
        seating: dict[int, dict[int, int]] = defaultdict(dict)
        for number, seat, entry_id in Entry.objects.filter(
            tournament_id=self.tid, status=ACTIVE, tournament_table__status=OPEN
        ).values_list("tournament_table__number", "seat", "pk"):
            seating[number][seat] = entry_id
        return seating

    def _last_action_id(self) -> int:
        return (
            FloorAction.objects.filter(tournament_id=self.tid)
            .order_by("-id")
            .values_list("id", flat=True)
            .first()
            or 0
        )

    def _recent(self, hand_at: int | None = None) -> dict[int, frozenset[int]]:
        """Open table number -> the players the floor moved there lately (docs/rules.md §5.4),
        as the plan after this step sees them (`hand_at`: that table reports a hand first)."""
        from dataclasses import replace

        from tables.floor.selectors import open_tables, recent_movers

        tables = [
            replace(t, hands_played=t.hands_played + 1) if t.number == hand_at else t
            for t in open_tables(Tournament.objects.get(pk=self.tid))
        ]
        seating = self._seating()
        occupied = {t.pk: seating.get(t.number, {}) for t in tables}
        recent = recent_movers(Tournament.objects.get(pk=self.tid), tables, occupied)
        return {t.number: recent.get(t.pk, frozenset()) for t in tables}

    def _check_movers(
        self, seating_before, busted: set[int], last_action: int, recent=None
    ) -> None:
        """Each single move planned by this step takes the source table's next big blind
        (docs/rules.md §5.4); several moves from one table take the next ones in turn. A player
        the floor moved there lately goes only after every other player (never twice in a row
        when another can go)."""
        recent = recent or {}
        moves = FloorAction.objects.filter(
            tournament_id=self.tid,
            id__gt=last_action,
            kind=FloorAction.Kind.MOVE,
            parent__isnull=True,
        ).order_by("id")
        by_source: dict[int, list[FloorAction]] = defaultdict(list)
        for move in moves:
            by_source[move.from_table].append(move)
        for number, planned in by_source.items():
            table = TournamentTable.objects.get(tournament_id=self.tid, number=number)
            blinds = table_blinds(table)
            if blinds is None:
                assert all(m.entry_id is None for m in planned)
                continue
            occupied = {s: e for s, e in seating_before[number].items() if e not in busted}
            expected = [
                (s, occupied[s])
                for s in clockwise_after(blinds.big_blind, table.seats)
                if s in occupied
            ]
            if len(occupied) >= 2:
                # The same walk as the button rules' own definition of the next big blind.
                assert expected[0][0] == next_big_blind_seat(blinds, occupied, table.seats)
            lately = recent.get(number, frozenset())
            expected = [x for x in expected if x[1] not in lately] + [
                x for x in expected if x[1] in lately
            ]
            assert [(m.from_seat, m.entry_id) for m in planned] == expected[: len(planned)]

    # --- rules ---------------------------------------------------------------------------

    @precondition(lambda self: self._status() == Tournament.Status.RUNNING)
    @rule(data=st.data())
    def bust(self, data) -> None:
        self._bust(data, 1)

    @precondition(lambda self: self._status() == Tournament.Status.RUNNING)
    @rule(data=st.data())
    def bust_two_in_one_hand(self, data) -> None:
        self._bust(data, 2)

    @precondition(lambda self: self._status() == Tournament.Status.RUNNING)
    @rule(data=st.data())
    def bust_and_finish_the_hand(self, data) -> None:
        self._bust(data, 2, finish_hand=True)

    def _bust(self, data, most: int, finish_hand: bool = False) -> None:
        """Bust up to `most` players of one table in one hand, with their start stacks; with
        `finish_hand`, as the dealer's "Bust-out and hand finished" (the hand is reported in
        the same transaction)."""
        seating = self._seating()
        active = sum(len(s) for s in seating.values())
        number = data.draw(st.sampled_from(sorted(n for n, s in seating.items() if s)))
        at_table = [seating[number][s] for s in sorted(seating[number])]
        count = min(most, len(at_table), active - 1)
        victims = data.draw(st.permutations(at_table))[:count]
        stacks = data.draw(st.lists(st.sampled_from(STACKS), min_size=count, max_size=count))
        last_action = self._last_action_id()
        recent = self._recent()
        busts = list(zip(victims, stacks, strict=True))
        if finish_hand:
            result = hand_finished_with_busts(
                actor=self.director, tournament_id=self.tid, table_number=number, eliminations=busts
            )
        else:
            result = eliminations_record(
                actor=self.director, tournament_id=self.tid, eliminations=busts, rng=self.rng
            )
        ranges = Counter((r["place"], r["place_to"]) for r in result["results"])
        assert all(n == last - first + 1 for (first, last), n in ranges.items())
        places = sorted(p for first, last in ranges for p in range(first, last + 1))
        assert places == list(range(active - len(victims) + 1, active + 1))
        if not finish_hand:  # the hand report moves that table's blinds after the bust's plan
            self._check_movers(seating, set(victims), last_action, recent)

    @rule(data=st.data())
    def report_hand(self, data) -> None:
        seating = self._seating()
        playable = sorted(n for n, s in seating.items() if len(s) >= 2)
        if not playable:
            return
        number = data.draw(st.sampled_from(playable))
        table = TournamentTable.objects.get(tournament_id=self.tid, number=number)
        button = None
        if table_blinds(table) is None:  # a table opened for late entries: the dealer says
            button = data.draw(st.sampled_from(sorted(seating[number])))
        last_action = self._last_action_id()
        recent = self._recent(hand_at=number)
        hand_report(
            actor=self.director, tournament_id=self.tid, table_number=number, button_seat=button
        )
        self._check_movers(seating, set(), last_action, recent)

    @precondition(
        lambda self: (
            self.late_entries < MAX_LATE_ENTRIES and self._status() == Tournament.Status.RUNNING
        )
    )
    @rule()
    def late_entry(self) -> None:
        entry = self._register()
        self.late_entries += 1
        assert entry.status == ACTIVE and entry.seat is not None

    @rule(data=st.data())
    def undo_bust(self, data) -> None:
        recent = list(
            Elimination.objects.filter(tournament_id=self.tid, undone_at__isnull=True)
            .order_by("-id")
            .values_list("entry_id", flat=True)[:3]
        )
        if not recent:
            return
        entry_id = data.draw(st.sampled_from(recent))
        elimination_undo(
            actor=self.director, tournament_id=self.tid, entry_id=entry_id, rng=self.rng
        )
        assert Entry.objects.get(pk=entry_id).status == ACTIVE

    @rule(data=st.data())
    def confirm(self, data) -> None:
        pending = list(
            FloorAction.objects.filter(
                tournament_id=self.tid, status=PENDING, parent__isnull=True
            ).order_by("id")
        )
        if not pending:
            return
        action = data.draw(st.sampled_from(pending))
        named = None
        if action.kind == FloorAction.Kind.MOVE and action.entry_id is None:
            named = self._next_big_blind(action.from_table, data)
        floor_action_done(
            actor=self.director, tournament_id=self.tid, action_id=action.pk, entry_id=named
        )
        action.refresh_from_db()
        assert action.status == FloorAction.Status.DONE

    def _next_big_blind(self, number: int, data) -> int:
        """The player the floor names for an unnamed move: the source's next big blind."""
        table = TournamentTable.objects.get(tournament_id=self.tid, number=number)
        occupied = self._seating()[number]
        assert occupied, f"an unnamed move is owed by table {number}, which has nobody left"
        blinds = table_blinds(table)
        if blinds is None or len(occupied) < 2:
            return occupied[data.draw(st.sampled_from(sorted(occupied)))]
        return occupied[next_big_blind_seat(blinds, occupied, table.seats)]

    # --- invariants ----------------------------------------------------------------------

    @invariant()
    def every_void_move_is_audited_once(self) -> None:
        """Every write is audited: a pending move voided (its mover busted or moved again, a
        mover not named yet planned again, a break or redraw left with nothing to confirm) is
        floor.void, a move called off floor.call_off; one entry each (docs/rules.md §3.4)."""
        if self.tournament is None:
            return
        void = set(
            FloorAction.objects.filter(
                tournament_id=self.tid, status=FloorAction.Status.SUPERSEDED
            ).values_list("pk", flat=True)
        )
        audited = Counter(
            int(pk)
            for pk in AuditEntry.objects.filter(
                tournament_id=self.tid, action__in=["floor.void", "floor.call_off"]
            ).values_list("target_id", flat=True)
        )
        assert set(audited) == void and set(audited.values()) <= {1}, (void, audited)

    @invariant()
    def nobody_lost_and_no_seat_twice(self) -> None:
        if self.tournament is None:
            return
        entries = list(
            Entry.objects.filter(tournament_id=self.tid).values_list(
                "pk", "status", "tournament_table_id", "seat", "place"
            )
        )
        assert len(entries) == self.registered
        assert {status for _pk, status, *_ in entries} <= {ACTIVE, Entry.Status.ELIMINATED}
        tables = {t.pk: t for t in TournamentTable.objects.filter(tournament_id=self.tid)}
        seats = []
        for _pk, status, table_id, seat, _place in entries:
            if status != ACTIVE:
                continue
            assert table_id is not None and seat is not None
            table = tables[table_id]
            assert table.status == OPEN, f"an active player sits at broken table {table.number}"
            assert 1 <= seat <= table.seats
            seats.append((table.number, seat))
        assert len(seats) == len(set(seats)), "a seat holds two players"
        assert table_players_drift(self.tid) == {}, "a stored player count is wrong"
        # A seat promised to a mover the floor has not named yet is empty and in play.
        taken = set(seats)
        open_numbers = {t.number for t in tables.values() if t.status == OPEN}
        for from_table, to_table, to_seat in FloorAction.objects.filter(
            tournament_id=self.tid, kind=FloorAction.Kind.MOVE, status=PENDING, entry__isnull=True
        ).values_list("from_table", "to_table", "to_seat"):
            assert to_table in open_numbers and from_table in open_numbers
            assert (to_table, to_seat) not in taken, "a late seat took a seat promised to a mover"
            taken.add((to_table, to_seat))
        # A named mover still sits in the seat he leaves until the floor confirms the move
        # (docs/rules.md §3.4): nobody else is seated there, nor promised it. (At a final-table
        # redraw everybody stands up at once.)
        for from_table, from_seat in (
            FloorAction.objects.filter(
                tournament_id=self.tid,
                kind=FloorAction.Kind.MOVE,
                status=PENDING,
                entry__isnull=False,
            )
            .exclude(parent__kind=FloorAction.Kind.FINAL_TABLE_REDRAW)
            .values_list("from_table", "from_seat")
        ):
            if from_table in open_numbers:
                assert (from_table, from_seat) not in taken, "a seat is held by two people"
                taken.add((from_table, from_seat))

    @invariant()
    def places_partition_the_eliminated(self) -> None:
        if self.tournament is None:
            return
        standing = list(
            Elimination.objects.filter(tournament_id=self.tid, undone_at__isnull=True).values_list(
                "entry_id", "bust_group", "place", "place_to"
            )
        )
        status = dict(Entry.objects.filter(tournament_id=self.tid).values_list("pk", "status"))
        place_of = dict(Entry.objects.filter(tournament_id=self.tid).values_list("pk", "place"))
        eliminated = {pk for pk, s in status.items() if s == Entry.Status.ELIMINATED}
        assert sorted(e for e, *_ in standing) == sorted(eliminated)
        groups: dict[int, Counter] = defaultdict(Counter)
        for entry_id, group, place, place_to in standing:
            assert 1 < place <= place_to <= len(status)
            assert place_of[entry_id] == place
            groups[group][(place, place_to)] += 1
        active = len(status) - len(eliminated)
        # Late entries after bust-outs included: the places of those out are final at every
        # moment (each later entry moved them one down), so they tile active+1 .. entries.
        covered: list[int] = []
        for ranges in groups.values():
            group_places = []
            for (first, last), sharing in ranges.items():
                assert sharing == last - first + 1, "a tie shares exactly its places"
                group_places.extend(range(first, last + 1))
            group_places.sort()
            assert group_places == list(range(group_places[0], group_places[-1] + 1))
            covered.extend(group_places)
        assert sorted(covered) == list(range(active + 1, len(status) + 1))
        winners = [pk for pk, s in status.items() if s == ACTIVE and place_of[pk] is not None]
        if self._status() == Tournament.Status.FINISHED:
            assert active == 1 and [place_of[w] for w in winners] == [1]
        else:
            assert winners == []

    @invariant()
    def tables_as_many_as_needed_and_balanced(self) -> None:
        if self.tournament is None:
            return
        tournament = Tournament.objects.get(pk=self.tid)
        open_tables = self._open_tables()
        seating = self._seating()
        players = sum(len(s) for s in seating.values())
        multi = multi_table_start(tournament)
        assert multi  # 12+ players always start on two tables or more
        # The final table forms exactly at its size (docs/rules.md §7.1).
        assert (len(open_tables) == 1) == (players <= self.rules.final_table_size)
        unnamed = FloorAction.objects.filter(
            tournament_id=self.tid, kind=FloorAction.Kind.MOVE, status=PENDING, entry__isnull=True
        ).exists()
        assert len(open_tables) <= tables_wanted(players, multi, self.rules)
        if unnamed:
            # Movers not named yet still sit at their old tables while their new seats are
            # held: the counts are not final until the floor names them.
            return
        if len(open_tables) < 2:
            return
        counts = {n: len(seating.get(n, {})) for n in open_tables}
        largest = max(counts.values())
        # Balancing stops once the gap is under the threshold, or no table can take a player:
        # a seat a mover has not left yet is not free (docs/rules.md §3.4).
        held = held_seats(Tournament.objects.get(pk=self.tid))
        receivers = [
            counts[n]
            for n, t in open_tables.items()
            if counts[n] + len(held.get(n, set()) - set(seating.get(n, {}))) < t.seats
        ]
        if receivers:
            assert largest - min(receivers) < self.rules.balance_threshold, counts


def shape_checked_replan(**kwargs):
    """`floor_replan`, checking the field shape a bust-out worked out from its own read
    against a fresh `field_shape`."""
    if kwargs.get("shape") is not None:
        assert kwargs["shape"] == floor_services.field_shape(kwargs["tournament"])
    return floor_services.floor_replan(**kwargs)


def test_the_floor_keeps_its_invariants_over_random_play(director, structure, monkeypatch):
    monkeypatch.setattr(floor_services, "random", PlannerRandom)
    monkeypatch.setattr(eliminations_follow, "floor_replan", shape_checked_replan)
    machine = type("Machine", (FloorMachine,), {"director": director, "structure": structure})
    run_state_machine_as_test(
        machine,
        settings=settings(
            # FLOOR_EXAMPLES=400 for a deeper search (about 7 minutes on SQLite).
            max_examples=int(os.environ.get("FLOOR_EXAMPLES", 10)),
            # A fixed search in CI; FLOOR_SEED=random explores (it found the open case in
            # the closing note: a late entry into a seat held for an unnamed mover).
            derandomize=os.environ.get("FLOOR_SEED") != "random",
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
