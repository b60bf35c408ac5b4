"""Steps of a festival's main event through the API (issue 26), shared by its tests: a hall,
a main event, flights played and bagged, counts sent from the dealer links."""

from tables.dealer_links.selectors import dealer_token
from tables.floor.selectors import tables_really_at
from tables.rooms.usecases import room_create
from tests.conftest import ApiClient, friday_deepstack
from tests.factories import bust, start
from tourney.models import Entry, Tournament


def festival_hall(director):
    """A room of ten 10-seat tables."""
    return room_create(
        actor=director,
        name="Festival hall",
        tables=[{"number": n, "seats": 10} for n in range(1, 11)],
    )


def main_event(director, structure, hall, **rules):
    return friday_deepstack(
        director,
        structure,
        hall,
        name="Main Event",
        rules_overrides={"reentry_max": 2, **rules},
        table_numbers=list(range(1, 11)),
    )


def flight(api, main, name, tables):
    response = api.post(f"/tournaments/{main.pk}/flights", {"name": name, "table_numbers": tables})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["parent_id"] == main.pk and body["buy_in"] == main.buy_in
    return Tournament.objects.get(pk=body["id"])


def register(api, tournament, player_id):
    return api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player_id})


def players(api, names):
    return {n: api.post("/players", {"name": n}).json()["id"] for n in names}


def seated(tournament):
    """Each table's players left, by table number: {number: [entry id, ...]}."""
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    out: dict[int, list[int]] = {}
    for entry_id, number in tables_really_at(
        tournament.pk, left.values_list("pk", flat=True)
    ).items():
        out.setdefault(number, []).append(entry_id)
    return out


def count_from_dealers(tournament, chips_of):
    """Every table's dealer link sends its players' counts (`chips_of(entry_id)`)."""
    for number, entries in seated(tournament).items():
        dealer = ApiClient(dealer_token(tournament.pk, number, 0))
        response = dealer.put(
            f"/tournaments/{tournament.pk}/chip-counts",
            {"counts": [{"entry_id": e, "chips": chips_of(e)} for e in entries]},
        )
        assert response.status_code == 200, response.json()


def play_flight(api, fl, ids, busts):
    """Register `ids` (player ids), draw, start, bust the first `busts` entries (each with a
    stack of 40,000 so the chips stay whole); the entries left."""
    for pid in ids:
        assert register(api, fl, pid).status_code == 201
    assert api.post(f"/tournaments/{fl.pk}/draw").status_code == 200
    start(api, fl)
    out = list(Entry.objects.filter(tournament=fl).order_by("pk").values_list("pk", flat=True))
    for e in out[:busts]:
        bust(api, fl, (e, 40_000))
    return out[busts:]


def bag_flight(api, fl, survivors):
    """Counts that hold every chip in play (the busted players' chips shared out), then the
    end of the day."""
    in_play = api.get(f"/tournaments/{fl.pk}").json()["total_chips"]
    share, rest = divmod(in_play, len(survivors))
    chips = {e: share + (rest if i == 0 else 0) for i, e in enumerate(sorted(survivors))}
    refused = api.post(f"/tournaments/{fl.pk}/end-of-day")
    assert refused.status_code == 409 and refused.json()["code"] == "chip_counts_missing"
    count_from_dealers(fl, chips.__getitem__)
    ended = api.post(f"/tournaments/{fl.pk}/end-of-day")
    assert ended.status_code == 200, ended.json()
    assert ended.json() == {
        "bagged": len(survivors),
        "chips_bagged": in_play,
        "chips_in_play": in_play,
        "difference": 0,
    }
    return chips
