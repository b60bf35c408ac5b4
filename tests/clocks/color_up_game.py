"""A running color-up game (docs/rules.md §8): a structure whose breaks color up the 100s, the
500s and the 1,000s in turn, four players seated at table 1 by name, and a jump to a break;
shared by the color-up tests through the API, the pages and the chip race's invariants."""

import pytest

from tourney.models import Entry
from tourney.tournaments.usecases import tournament_create

# 100s go at break 1 (D = 500), 500s at break 2 (D = 1,000), 1,000s at break 3 (D = 5,000).
CHIPS = [
    {"value": 100, "color": "grey"},
    {"value": 500, "color": "red"},
    {"value": 1_000, "color": "blue"},
    {"value": 5_000, "color": "yellow"},
]
LEVEL = 15 * 60
BREAK = 10 * 60
PERIODS = [
    {"kind": "level", "small_blind": 100, "big_blind": 200, "duration_seconds": LEVEL},
    {"kind": "break", "duration_seconds": BREAK, "color_up": [100]},  # 1
    {"kind": "level", "small_blind": 500, "big_blind": 1_000, "duration_seconds": LEVEL},
    {"kind": "break", "duration_seconds": BREAK, "color_up": [500]},  # 3
    {"kind": "level", "small_blind": 1_000, "big_blind": 2_000, "duration_seconds": LEVEL},
    {"kind": "break", "duration_seconds": BREAK, "color_up": [1_000]},  # 5
    {"kind": "level", "small_blind": 5_000, "big_blind": 10_000, "duration_seconds": LEVEL},
    {"kind": "break", "duration_seconds": BREAK},  # 7: no color-up
    {"kind": "level", "small_blind": 10_000, "big_blind": 20_000, "duration_seconds": LEVEL},
]
BREAK_100, BREAK_500, BREAK_1000, PLAIN_BREAK = 1, 3, 5, 7


@pytest.fixture
def game(api, director, room):
    """A running tournament on the structure above, four players at table 1."""
    response = api.post("/structures", {"name": "Color-up test", "chips": CHIPS, "levels": PERIODS})
    assert response.status_code == 201, response.json()
    tournament = tournament_create(
        actor=director,
        name="Color-up night",
        structure_id=response.json()["id"],
        starting_stack=20_000,
        buy_in=5_000,
        room_id=room.pk,
        house_rules="tda2024",
    )
    seat_at(api, tournament, {1: "Anna", 4: "Béla", 7: "Csaba", 9: "Dóra"})
    assert api.post(f"/tournaments/{tournament.pk}/clock/start").status_code == 200
    return tournament


def seat_at(api, tournament, names_by_seat: dict[int, str]) -> dict[int, int]:
    """Register the players, draw, then put each in the named seat of table 1."""
    ids = {}
    for seat, name in names_by_seat.items():
        player = api.post("/players", {"name": name}).json()["id"]
        ids[seat] = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player}).json()[
            "id"
        ]
    assert api.post(f"/tournaments/{tournament.pk}/draw").status_code == 200
    table = Entry.objects.get(pk=ids[min(ids)]).tournament_table
    for offset, entry_id in enumerate(ids.values()):  # out of the way first: seats are unique
        Entry.objects.filter(pk=entry_id).update(tournament_table=table, seat=50 + offset)
    for seat, entry_id in ids.items():
        Entry.objects.filter(pk=entry_id).update(seat=seat)
    assert table.number == 1
    return ids


def jump(api, tournament, index):
    response = api.post(f"/tournaments/{tournament.pk}/clock/jump", {"period_index": index})
    assert response.status_code == 200, response.json()
