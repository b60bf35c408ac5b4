"""A payout structure's tables are history once a tournament has paid by them: editing the
structure is refused (409 `payout_structure_in_use`, nothing changed) while a tournament using
it has paid a prize, stands on a deal or has finished, so results already printed and prizes
already paid at the cage keep adding up to the pool. A live tournament with nothing paid
still follows the edit."""

import pytest

from tests.conftest import numbered_players, seat_players
from tourney.models import PayoutStructure

pytestmark = pytest.mark.django_db

TWO_PAID = [
    {"min_entries": 1, "max_entries": 3, "percents": [100]},
    {"min_entries": 4, "max_entries": None, "percents": [60, 40]},
]
THREE_PAID = [
    {"min_entries": 1, "max_entries": 3, "percents": [100]},
    {"min_entries": 4, "max_entries": None, "percents": [50, 30, 20]},
]


def prepared(api, tournament, players=4) -> tuple[int, dict[str, int]]:
    made = api.post("/payout-structures", {"name": "House", "brackets": TWO_PAID})
    assert made.status_code == 201, made.json()
    structure_id = made.json()["id"]
    ids = seat_players(api, tournament, numbered_players(players))
    chosen = api.put(
        f"/tournaments/{tournament.pk}/payout-structure", {"payout_structure_id": structure_id}
    )
    assert chosen.status_code == 200, chosen.json()
    assert api.post(f"/tournaments/{tournament.pk}/start").status_code == 200
    return structure_id, ids


def bust(api, tournament, entry_id):
    response = api.post(
        f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": entry_id}]}
    )
    assert response.status_code == 200, response.json()


def edit(api, structure_id):
    return api.put(f"/payout-structures/{structure_id}", {"name": "House", "brackets": THREE_PAID})


def results(api, tournament) -> list[tuple[int, int]]:
    rows = api.get(f"/tournaments/{tournament.pk}/results").json()
    return [(r["place"], r["prize"]) for r in rows]


def assert_refused(api, tournament, structure_id):
    before = (results(api, tournament), PayoutStructure.objects.get(pk=structure_id).brackets)
    response = edit(api, structure_id)
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == "payout_structure_in_use" and response.json()["detail"]
    after = (results(api, tournament), PayoutStructure.objects.get(pk=structure_id).brackets)
    assert after == before


def test_a_live_tournament_with_nothing_paid_follows_the_edit(api, tournament):
    structure_id, _ids = prepared(api, tournament)
    assert [p["amount"] for p in api.get(f"/tournaments/{tournament.pk}/payouts").json()] == [
        24_000,
        16_000,
    ]
    assert edit(api, structure_id).status_code == 200
    assert [p["amount"] for p in api.get(f"/tournaments/{tournament.pk}/payouts").json()] == [
        20_000,
        12_000,
        8_000,
    ]


def test_editing_a_structure_a_finished_tournament_paid_by_is_refused(api, tournament):
    structure_id, ids = prepared(api, tournament)
    for name in ("P3", "P2", "P1"):
        bust(api, tournament, ids[name])
    assert results(api, tournament)[:2] == [(1, 24_000), (2, 16_000)]
    assert_refused(api, tournament, structure_id)


def test_editing_a_structure_after_a_prize_was_paid_is_refused(api, tournament):
    structure_id, ids = prepared(api, tournament, players=5)
    bust(api, tournament, ids["P4"])
    bust(api, tournament, ids["P3"])
    bust(api, tournament, ids["P2"])  # 3rd: unpaid with two places, paid with three
    paid = api.post(f"/tournaments/{tournament.pk}/results/{ids['P2']}/pay")
    assert paid.status_code == 409  # nothing to pay yet: the edit is still allowed
    bust(api, tournament, ids["P1"])
    assert api.post(f"/tournaments/{tournament.pk}/results/{ids['P1']}/pay").status_code == 201
    assert_refused(api, tournament, structure_id)


def test_editing_a_structure_under_a_deal_is_refused(api, tournament):
    structure_id, ids = prepared(api, tournament)
    stacks = [{"entry_id": e, "stack": 40_000} for e in ids.values()]
    deal = api.post(
        f"/tournaments/{tournament.pk}/deals", {"method": "chip_chop", "stacks": stacks}
    )
    assert deal.status_code == 201, deal.json()
    assert_refused(api, tournament, structure_id)
