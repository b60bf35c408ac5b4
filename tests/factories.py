"""The objects tests build again and again, shared by the test modules instead of importing
one another's helpers: factory_boy factories for plain rows, and builders that go through the
real use cases (a registration, a tournament drawn and started, API steps)."""

import random
import threading
from collections import defaultdict
from datetime import timedelta

import factory
from django.db import connections
from django.utils import timezone
from factory.django import DjangoModelFactory

from clocks.clock.usecases import clock_operate
from clocks.domain.structures import Chip, Period, StructureData
from clocks.models import StructureLevel
from clocks.structures.usecases import structure_create
from tables.models import TournamentTable
from tables.rooms.usecases import room_create
from tables.seating.usecases import seats_draw
from tests.conftest import make_staff
from tourney.models import Entry, Player, Tournament
from tourney.players.selectors import player_search_text
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register
from tourney.tournaments.usecases import tournament_create

ROOM_TABLES = 16


class PlayerFactory(DjangoModelFactory):
    """A player; `search_text` is his name in lower case, as the desk's search finds it. A club
    member who signed the house rules, so that a members-only room (Doyle) takes him too."""

    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n + 1}")
    search_text = factory.LazyAttribute(lambda player: player.name.lower())
    membership_number = factory.Sequence(lambda n: f"M-{n + 1}")
    rules_acknowledged_at = factory.LazyFunction(timezone.now)


class TournamentFactory(DjangoModelFactory):
    """A tournament row as it is stored, written directly (no use case, no clock, no events):
    give it a room and a structure, e.g. those of the `tournament` fixture. `finished=True`:
    last week's event, finished seven days ago."""

    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Tournament {n + 1}")
    starting_stack = 40_000
    buy_in = 10_000

    class Params:
        finished = factory.Trait(
            status=Tournament.Status.FINISHED,
            finished_at=factory.LazyFunction(lambda: timezone.now() - timedelta(days=7)),
        )


def make_players(n: int) -> list[int]:
    """Create `n` players at once (not timed) and return their ids in creation order."""
    players = []
    for i in range(n):
        fields = {"name": f"Bench Player {i:05d}", "nickname": "", "phone": ""}
        players.append(Player(**fields, search_text=player_search_text(fields)))
    before = Player.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    Player.objects.bulk_create(players)
    # these ones only (a benchmark may have made others before), in creation order
    return list(
        Player.objects.filter(pk__gt=before, name__startswith="Bench Player ")
        .order_by("name")
        .values_list("pk", flat=True)
    )


def bulk_entries(director, tournament: Tournament, player_ids: list[int], first_number: int = 1):
    """Active entries of these players at once (not timed), numbered from `first_number`, as the
    desk's registrations would leave them; the benchmarks' big fields."""
    now = timezone.now()
    Entry.objects.bulk_create(
        (
            Entry(
                tournament=tournament,
                player_id=player_id,
                number=number,
                status=Entry.Status.ACTIVE,
                created_at=now,
                created_by=director,
            )
            for number, player_id in enumerate(player_ids, start=first_number)
        ),
        batch_size=2_000,
    )


# --- through the use cases ---------------------------------------------------------------------


def register(director, tournament: Tournament, rng: random.Random) -> Entry:
    """A new player registers (a late entry once the seats are drawn)."""
    number = Player.objects.count() + 1
    player = PlayerFactory(name=f"Player {number}")
    return entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk, rng=rng)


def started_tournament(
    director, structure, players: int, profile: str, rng: random.Random, tables: int = ROOM_TABLES
) -> Tournament:
    """A tournament on a room of 10-seat tables, `players` seated by the draw, clock running,
    late registration open to the last level."""
    room = room_create(
        actor=director,
        name=f"Floor room {Tournament.objects.count() + 1}",
        tables=[{"number": n, "seats": 10} for n in range(1, tables + 1)],
    )
    levels = StructureLevel.objects.filter(structure=structure, kind="level").count()
    tournament = tournament_create(
        actor=director,
        name=f"Floor {profile}",
        structure_id=structure.pk,
        starting_stack=10_000,
        buy_in=100,
        room_id=room.pk,
        house_rules=profile,
        late_registration_level=levels,
    )
    for _ in range(players):
        register(director, tournament, rng)
    seats_draw(actor=director, tournament_id=tournament.pk, rng=rng)
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    return tournament


def turbo_tournament(levels: list[int], director=None, name: str = "Turbo"):
    """A drawn tournament (2 players, 1 table) whose structure has levels of `levels` seconds
    (`director`: an existing one, for several tournaments; `name` tells them apart)."""
    director = director or make_staff("director", "director")
    periods = tuple(
        Period("level", seconds, small_blind=100 * (i + 1), big_blind=200 * (i + 1))
        for i, seconds in enumerate(levels)
    )
    structure = structure_create(
        actor=director,
        data=StructureData(name=name, chips=(Chip(100, "grey"),), periods=periods),
    )
    room = room_create(actor=director, name=f"{name} room", tables=[{"number": 1, "seats": 10}])
    tournament = tournament_create(
        actor=director,
        name=name,
        structure_id=structure.pk,
        starting_stack=10_000,
        buy_in=100,
        room_id=room.pk,
    )
    for player_name in ("Ann", "Bob"):
        player = player_create(actor=director, name=player_name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk)
    return director, tournament


def seating_of(tournament: Tournament) -> dict[int, dict[int, int]]:
    """Open table number -> {seat: entry id}."""
    seating: dict[int, dict[int, int]] = defaultdict(dict)
    for number, seat, entry_id in Entry.objects.filter(
        tournament=tournament,
        status=Entry.Status.ACTIVE,
        tournament_table__status=TournamentTable.Status.OPEN,
    ).values_list("tournament_table__number", "seat", "pk"):
        seating[number][seat] = entry_id
    return seating


def entries_register(director, tournament: Tournament, n: int, start: int = 0) -> list[Entry]:
    """`n` new players ("Player <start>", ...) register, one use case each."""
    return [
        entry_register(
            actor=director,
            tournament_id=tournament.pk,
            player_id=Player.objects.create(name=f"Player {i}", search_text=f"player {i}").pk,
        )
        for i in range(start, start + n)
    ]


def seats_taken(tournament: Tournament) -> list[tuple[int, int]]:
    """(table number, seat) of every playing entry, as the chart shows them."""
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).values_list(
            "tournament_table__number", "seat"
        )
    )


def tda_tournament(director, room, structure, **overrides) -> Tournament:
    """A tda2024 tournament (`house_rules`, `table_numbers` and `money`, its rebuy settings,
    may be given) whose other `overrides` are house-rule overrides."""
    return tournament_create(
        actor=director,
        name="T",
        structure_id=structure.pk,
        starting_stack=40_000,
        buy_in=100,
        room_id=room.pk,
        house_rules=overrides.pop("house_rules", "tda2024"),
        table_numbers=overrides.pop("table_numbers", None),
        money=overrides.pop("money", None),
        rules_overrides=overrides,
    )


def short_tables_tournament(
    director, room, structure, table_numbers: list[int], seats: int
) -> Tournament:
    """A tda2024 tournament on `table_numbers`, `seats`-handed (a final table as large)."""
    return tda_tournament(
        director,
        room,
        structure,
        table_numbers=table_numbers,
        seats_per_table=seats,
        single_table_seats=seats,
        final_table_size=seats,
        short_handed_final_table_size=seats,
    )


def pending_move_into_table_one(director, room, structure, tables=(1, 2), seats: int = 3):
    """Full `seats`-handed tables, drawn and started; two bust-outs at table 1 make the floor
    move a player there. The move is pending: the chart shows him at table 1 at once, but he
    still sits in his old seat (docs/rules.md §3.4). Returns (tournament, move)."""
    from tables.models import FloorAction
    from tourney.eliminations.usecases import eliminations_record

    tournament = short_tables_tournament(director, room, structure, list(tables), seats)
    entries_register(director, tournament, seats * len(tables))
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(3))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    at_one = Entry.objects.filter(
        tournament=tournament, tournament_table__number=1, status=Entry.Status.ACTIVE
    )
    eliminations_record(
        actor=director,
        tournament_id=tournament.pk,
        eliminations=[
            (pk, None) for pk in at_one.order_by("seat").values_list("pk", flat=True)[:2]
        ],
        rng=random.Random(3),
    )
    move = FloorAction.objects.get(tournament=tournament, kind="move", status="pending")
    assert move.entry_id is not None and move.to_table == 1
    return tournament, move


# --- through the API ---------------------------------------------------------------------------


def start(api, tournament):
    assert api.post(f"/tournaments/{tournament.pk}/start").status_code == 200


def bust(api, tournament, *entries):
    response = api.post(
        f"/tournaments/{tournament.pk}/eliminations",
        {"eliminations": [{"entry_id": e, "hand_start_stack": s} for e, s in entries]},
    )
    assert response.status_code == 200, response.json()
    return response.json()


def results(api, tournament):
    response = api.get(f"/tournaments/{tournament.pk}/results")
    assert response.status_code == 200, response.json()
    return {r["entry_id"]: r for r in response.json()}


# --- at the same moment --------------------------------------------------------------------------


def run_at_once(functions):
    """Run the functions in threads released together; the exceptions they raised."""
    barrier = threading.Barrier(len(functions))
    errors: list[BaseException] = []

    def runner(fn):
        try:
            barrier.wait(timeout=10)
            fn()
        except BaseException as exc:  # collected and re-raised in the main thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(fn,)) for fn in functions]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return errors


def asgi_http_scope(
    path: str, query: str = "", headers: list[tuple[bytes, bytes]] | None = None
) -> dict:
    """The scope of a GET as uvicorn gives it to the application."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": headers or [],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 50000),
    }


def structure_run_out(tournament: Tournament, minutes_past: int = 0) -> None:
    """Its running clock's period ended long enough ago that the structure ran out
    `minutes_past` ago, and a timer has looked since (overtime, docs/rules.md §1.4)."""
    from clocks.clock.selectors import now_ms
    from clocks.clock.usecases import clocks_advance_due
    from clocks.models import Clock

    durations = list(
        StructureLevel.objects.filter(structure_id=tournament.structure_id)
        .order_by("position")
        .values_list("duration_seconds", flat=True)
    )
    clock = Clock.objects.filter(tournament=tournament)
    later = sum(durations[clock.get().period_index + 1 :])  # the periods after this one
    clock.update(period_ends_at_ms=now_ms() - (later + minutes_past * 60) * 1000)
    clocks_advance_due()
