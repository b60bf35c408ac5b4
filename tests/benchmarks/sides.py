"""What the benchmarks that compare two sides share: the ratio of their medians, a process's
CPU time, and a tournament of registered players to draw (not timed)."""

import os
import statistics

from tests.factories import bulk_entries
from tourney.tournaments.usecases import tournament_create


def median_ratio(a: list[float], b: list[float]) -> float:
    """B's median over A's (samples taken side by side, A B A B)."""
    return statistics.median(b) / statistics.median(a)


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU time so far (Linux /proc), in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def registered_tournament(director, structure_id: int, room_id: int, player_ids: list[int]):
    """A tournament on the room, 9 seats a table, every player registered and no seats."""
    tournament = tournament_create(
        actor=director,
        name="Bench evening",
        structure_id=structure_id,
        starting_stack=50_000,
        buy_in=10_000,
        fee=1_000,
        room_id=room_id,
        rules_overrides={"seats_per_table": 9},
    )
    bulk_entries(director, tournament, player_ids)
    return tournament
