"""What the simulator's floor person does between hands (tables/devtools/simulation.py):
carry out the floor's to-do list through the real use case (`floor_action_done`), check each
balancing move against the worst position, and check that the room is as the rules allow."""

import random
import time
from collections import Counter

from django.db.models import Count

from tables.devtools.simulation_results import InvariantError, ms_since, smallest_wait
from tables.domain.button import next_big_blind_seat
from tables.domain.floor_field import tables_wanted
from tables.domain.floor_rules import floor_rules
from tables.floor.selectors import floor_actions_out, floor_halted_tables, multi_table_start
from tables.floor.usecases import floor_action_done
from tables.models import FloorAction, TournamentTable
from tables.seating.selectors import table_blinds, table_players_drift
from tourney.core.errors import Conflict
from tourney.models import Elimination, Entry
from tourney.tournaments.selectors import tournament_rules

ACTIVE = Entry.Status.ACTIVE
OPEN = TournamentTable.Status.OPEN
PENDING = FloorAction.Status.PENDING


class FloorPerson:
    """Mixed into the simulation, whose state (tournament_id, actor, rng, result, active,
    collected, worst, last_action_id, open_tables) it reads and updates."""

    # -- the floor's to-do list --

    def collect(self) -> list[dict]:
        """Read the actions planned since the last look, before anything else changes the
        seating, and check each balancing move's seat against the worst position."""
        new = list(
            FloorAction.objects.filter(
                tournament_id=self.tournament_id, parent__isnull=True, pk__gt=self.last_action_id
            ).order_by("pk")
        )
        if not new:
            return []
        self.last_action_id = new[-1].pk
        rows = floor_actions_out(new)
        self._check_worst([r for r in rows if r["kind"] == FloorAction.Kind.MOVE])
        for row in rows:
            self.collected[row["id"]] = row
        return rows

    def _check_worst(self, moves: list[dict]) -> None:
        """For each balancing move of one plan, in planning order: the destination as the
        planner saw it and the smallest wait a seat there offered. The seating is read after
        the plan was applied, so movers of this and later moves to the table are taken out,
        later movers from it put back, and seats held for earlier unnamed movers kept."""
        if not any(m["entry_id"] is not None and m["wait_hands"] is not None for m in moves):
            return
        numbers = {m["to_table"] for m in moves}
        tables = {
            t.number: t
            for t in TournamentTable.objects.filter(
                tournament_id=self.tournament_id, number__in=numbers
            )
        }
        seated_now: dict[int, dict[int, int]] = {n: {} for n in numbers}
        for number, seat, entry_id in Entry.objects.filter(
            status=ACTIVE,
            seat_row__tournament_table__tournament_id=self.tournament_id,
            seat_row__tournament_table__number__in=numbers,
        ).values_list("tournament_table__number", "seat", "pk"):
            seated_now[number][entry_id] = seat
        for i, move in enumerate(moves):
            if move["entry_id"] is None or move["wait_hands"] is None:
                continue
            number = move["to_table"]
            blinds = table_blinds(tables[number])
            if blinds is None:
                continue
            later = moves[i:]
            arriving = {m["entry_id"] for m in later if m["to_table"] == number}
            seated = {s for e, s in seated_now[number].items() if e not in arriving}
            seated |= {m["from_seat"] for m in later[1:] if m["from_table"] == number}
            seated |= {
                m["to_seat"] for m in moves[:i] if m["to_table"] == number and m["entry_id"] is None
            }
            seated.discard(None)
            best = smallest_wait(tables[number].seats, blinds.big_blind, seated)
            self.worst[move["id"]] = best is not None and move["wait_hands"] == best

    def _name_next_big_blind(self, table_number: int) -> int | None:
        return next_big_blind_entry(self.tournament_id, table_number, self.rng)

    def carry_out(self) -> None:
        """Confirm every pending action, oldest first, as the floor would before the next
        hand; confirming may plan more, which is carried out too."""
        for _round in range(1_000):
            pending = list(
                FloorAction.objects.filter(
                    tournament_id=self.tournament_id, parent__isnull=True, status=PENDING
                )
                .order_by("pk")
                .values_list("pk", "kind", "entry_id", "from_table")
            )
            if not pending:
                # What is left was undone or replaced by a later plan: never to be done.
                self.collected.clear()
                self.worst.clear()
                return
            for action_id, kind, entry_id, from_table in pending:
                named = None
                if kind == FloorAction.Kind.MOVE and entry_id is None:
                    named = self._name_next_big_blind(from_table)
                    self.result.moves.unnamed += 1
                start = time.perf_counter_ns()
                try:
                    floor_action_done(
                        actor=self.actor,
                        tournament_id=self.tournament_id,
                        action_id=action_id,
                        entry_id=named,
                    )
                except Conflict as exc:
                    if exc.code == "action_not_pending":
                        continue  # done by an earlier confirmation (its parent)
                    raise
                self.result.action_ms.append(ms_since(start))
                self._count_done(action_id)
                self.collect()
            self.open_tables = self._count_open_tables()
        raise InvariantError("the floor's to-do list does not empty")

    def _count_done(self, action_id: int) -> None:
        row = self.collected.pop(action_id, None)
        if row is None:
            return
        stats = self.result.moves
        if row["kind"] == FloorAction.Kind.MOVE:
            stats.balancing += 1
            stats.wait_hands[row["wait_hands"]] += 1
            stats.sits_out += row["sits_out"]
            if action_id in self.worst:
                stats.worst_checked += 1
                stats.worst_position += self.worst.pop(action_id)
        elif row["kind"] == FloorAction.Kind.BREAK_TABLE:
            stats.table_breaks += 1
            stats.break_moves += len(row["moves"])
            stats.sits_out += sum(m["sits_out"] for m in row["moves"])
        elif row["kind"] == FloorAction.Kind.FINAL_TABLE_REDRAW:
            stats.redraw_moves += len(row["moves"])

    # -- invariants --

    def check(self) -> None:
        """The seating, the field and the places are what the rules allow (InvariantError)."""
        tid = self.tournament_id
        result = self.result
        result.invariant_checks += 1
        tournament = self._tournament()
        tables = {t.pk: t for t in TournamentTable.objects.filter(tournament_id=tid)}
        seats: set[tuple[int, int]] = set()
        active_ids = set()
        for entry_id, table_id, seat in Entry.objects.filter(
            tournament_id=tid, status=ACTIVE
        ).values_list("pk", "tournament_table_id", "seat"):
            active_ids.add(entry_id)
            table = tables.get(table_id)
            if table is None or seat is None:
                raise InvariantError(f"entry {entry_id} plays without a seat")
            if table.status != OPEN or not 1 <= seat <= table.seats:
                raise InvariantError(f"entry {entry_id} sits at table {table.number} seat {seat}")
            if (table_id, seat) in seats:
                raise InvariantError(f"table {table.number} seat {seat} holds two players")
            seats.add((table_id, seat))
        drift = table_players_drift(tid)
        if drift:
            raise InvariantError(f"stored player counts (stored, counted) are wrong: {drift}")
        if active_ids != set(self.active.items):
            lost = set(self.active.items) ^ active_ids
            raise InvariantError(f"the field differs from the simulation's: entries {sorted(lost)}")
        open_tables = sum(t.status == OPEN for t in tables.values())
        rules = floor_rules(tournament_rules(tournament))
        wanted = max(1, tables_wanted(len(active_ids), multi_table_start(tournament), rules))
        if open_tables > wanted:
            raise InvariantError(f"{open_tables} tables open for {len(active_ids)} players")
        self._check_places(len(active_ids))
        result.halted_seen += len(floor_halted_tables(tournament))

    def _check_places(self, remaining: int) -> None:
        """Every entry is playing or out with a place; the places of the standing bust-outs
        tile remaining+1 .. players, each shared range held by as many players as it spans."""
        tid = self.tournament_id
        players = self.config.players
        statuses = dict(
            Entry.objects.filter(tournament_id=tid)
            .values("status")
            .annotate(n=Count("pk"))
            .values_list("status", "n")
        )
        if statuses.get(ACTIVE, 0) + statuses.get(Entry.Status.ELIMINATED, 0) != players:
            raise InvariantError(f"entries by status {statuses} do not add up to {players}")
        rows = list(
            Elimination.objects.filter(tournament_id=tid, undone_at__isnull=True).values_list(
                "entry_id", "place", "place_to"
            )
        )
        eliminated = dict(
            Entry.objects.filter(tournament_id=tid, status=Entry.Status.ELIMINATED).values_list(
                "pk", "place"
            )
        )
        if len(rows) != len(eliminated) or {r[0] for r in rows} != set(eliminated):
            raise InvariantError("eliminated entries and standing eliminations differ")
        worst = players
        for (place, place_to), n in sorted(
            Counter((place, place_to) for _e, place, place_to in rows).items(), reverse=True
        ):
            if place_to != worst or place_to - place + 1 != n:
                raise InvariantError(f"places {place}-{place_to} held by {n} players")
            worst = place - 1
        if worst != remaining:
            raise InvariantError(f"places end at {worst + 1} with {remaining} players left")
        for entry_id, place, _to in rows:
            if eliminated[entry_id] != place:
                raise InvariantError(f"entry {entry_id} shows place {eliminated[entry_id]}")


def next_big_blind_entry(tournament_id: int, table_number: int, rng: random.Random) -> int | None:
    """The entry a floor person names for a move "the player who is big blind next": read from
    the table's positions, or a random player there when its button is not known."""
    table = TournamentTable.objects.filter(tournament_id=tournament_id, number=table_number).first()
    if table is None:
        return None
    occupied = dict(
        Entry.objects.filter(seat_row__tournament_table=table, status=ACTIVE).values_list(
            "seat", "pk"
        )
    )
    if not occupied:
        return None
    blinds = table_blinds(table)
    if blinds is None or len(occupied) < 2:
        return occupied[rng.choice(sorted(occupied))]
    return occupied[next_big_blind_seat(blinds, occupied, table.seats)]
