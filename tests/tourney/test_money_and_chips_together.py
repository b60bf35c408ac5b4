"""Issue 5's four parts in one tournament: re-entries, rebuys (one taking back a bust-out),
add-ons (one undone), a color-up, a disqualification in the money, a deal and a prize paid.
The chips in play are what a person would count on the tables, the payouts sum to the pool,
the results' prizes and forfeits add up to it, and every write is audited and announced."""

import pytest

from tests.conftest import seat_players
from tourney.models import AuditEntry, Entry, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db

LEVEL = 15 * 60
CHIPS = [
    {"value": 100, "color": "grey"},
    {"value": 500, "color": "red"},
    {"value": 1_000, "color": "blue"},
    {"value": 5_000, "color": "yellow"},
]
PERIODS = [
    {"kind": "level", "small_blind": 100, "big_blind": 200, "duration_seconds": LEVEL},
    {"kind": "break", "duration_seconds": 600, "color_up": [100]},
    {"kind": "level", "small_blind": 500, "big_blind": 1_000, "duration_seconds": LEVEL},
    {"kind": "level", "small_blind": 1_000, "big_blind": 2_000, "duration_seconds": LEVEL},
]
BREAK, LEVEL_2, LEVEL_3 = 1, 2, 3
STACK, PRICE, FEE = 20_000, 10_000, 1_000
REBUY_CHIPS, ADDON_CHIPS, ADDON_PRICE, ADDON_FEE = 20_000, 30_000, 5_000, 1_000
GUARANTEE = 150_000


@pytest.fixture
def tournament(api, room) -> Tournament:
    structure = api.post("/structures", {"name": "Money night", "chips": CHIPS, "levels": PERIODS})
    assert structure.status_code == 201, structure.json()
    pays_four = api.post(
        "/payout-structures",
        {
            "name": "Four paid",
            "brackets": [
                {"min_entries": 1, "max_entries": 3, "percents": [100]},
                {"min_entries": 4, "max_entries": None, "percents": [40, 30, 20, 10]},
            ],
        },
    )
    assert pays_four.status_code == 201, pays_four.json()
    created = api.post(
        "/tournaments",
        {
            "name": "Money night",
            "structure_id": structure.json()["id"],
            "starting_stack": STACK,
            "buy_in": PRICE,
            "fee": FEE,
            "room_id": room.pk,
            "house_rules": "tda2024",
            "reentry_max": 1,
            "rebuy_until_level": 2,
            "rebuy_condition": "at_most_start",
            "rebuy_buy_in": PRICE,
            "rebuy_fee": FEE,
            "rebuy_chips": REBUY_CHIPS,
            "addon_level": 1,
            "addon_buy_in": ADDON_PRICE,
            "addon_fee": ADDON_FEE,
            "addon_chips": ADDON_CHIPS,
            "guarantee": GUARANTEE,
            "payout_structure_id": pays_four.json()["id"],
        },
    )
    assert created.status_code == 201, created.json()
    return Tournament.objects.get(pk=created.json()["id"])


class Writes:
    """Each write adds at least one audit entry and one event to the tournament."""

    def __init__(self, api, tournament):
        self.api, self.t = api, tournament

    def _counts(self) -> tuple[int, int]:
        return (
            AuditEntry.objects.filter(tournament=self.t).count(),
            TournamentEvent.objects.filter(tournament=self.t).count(),
        )

    def post(self, path: str, body: dict | None = None, status: int = 200) -> dict:
        audits, events = self._counts()
        response = self.api.post(f"/tournaments/{self.t.pk}{path}", body or {})
        assert response.status_code == status, (path, response.json())
        after_audits, after_events = self._counts()
        assert after_audits > audits and after_events > events, path
        return response.json()


def summary(api, tournament) -> dict:
    return api.get(f"/tournaments/{tournament.pk}").json()


def test_chips_in_play_and_the_money_across_rebuys_color_up_dq_and_deal(api, tournament):
    t, w = tournament, Writes(api, tournament)
    ids = seat_players(api, t, [f"P{i}" for i in range(6)])
    w.post("/clock/start")

    # Level 1: P0 busts and rebuys (back in), P1 rebuys short, P2 busts and re-enters.
    w.post("/eliminations", {"eliminations": [{"entry_id": ids["P0"]}]})
    w.post(f"/entries/{ids['P0']}/rebuy", status=201)
    w.post(f"/entries/{ids['P1']}/rebuy", {"stack": 15_000}, status=201)
    w.post("/eliminations", {"eliminations": [{"entry_id": ids["P2"]}]})
    player = Entry.objects.get(pk=ids["P2"]).player_id
    reentry = w.post("/entries", {"player_id": player}, status=201)["id"]

    # The break after level 1: two add-ons, one undone; table of P3 colors up by round-up.
    w.post("/clock/jump", {"period_index": BREAK})
    w.post(f"/entries/{ids['P3']}/addon", status=201)
    mistaken = w.post(f"/entries/{ids['P4']}/addon", status=201)["id"]
    w.post(f"/chip-purchases/{mistaken}/undo")
    p3 = Entry.objects.get(pk=ids["P3"])
    colored = w.post(
        "/color-ups",
        {
            "table": p3.tournament_table.number,
            "method": "round_up",
            "seats": [{"seat": p3.seat, "stack": 50_100}],
        },
        status=201,
    )
    assert colored["chips_change"] == 400  # 50,100 -> 50,500 once the 100s go

    entries = 7
    counted = entries * STACK + 2 * REBUY_CHIPS + ADDON_CHIPS + 400
    data = summary(api, t)
    assert (data["entries"], data["rebuys"], data["addons"]) == (entries, 2, 1)
    assert data["total_chips"] == counted
    assert data["prize_money"] == (entries + 2) * PRICE + ADDON_PRICE == 95_000
    assert (data["prize_pool"], data["overlay"]) == (GUARANTEE, GUARANTEE - 95_000)

    # Level 2: down to four; P5 is disqualified in 4th with 25,000 chips.
    w.post("/clock/jump", {"period_index": LEVEL_2})
    w.post("/eliminations", {"eliminations": [{"entry_id": ids["P4"]}]})
    w.post("/eliminations", {"eliminations": [{"entry_id": ids["P3"]}]})
    w.post(
        "/penalties",
        {"entry_id": ids["P5"], "kind": "disqualification", "reason": "Abuse", "chips": 25_000},
        status=201,
    )
    assert summary(api, t)["total_chips"] == counted - 25_000
    assert summary(api, t)["players_remaining"] == 3

    payouts = [p["amount"] for p in api.get(f"/tournaments/{t.pk}/payouts").json()]
    assert payouts == [60_000, 45_000, 30_000, 15_000] and sum(payouts) == GUARANTEE

    # Three left make an ICM deal on what the three top places pay, then play it out.
    left = [ids["P0"], ids["P1"], reentry]
    stacks = [
        {"entry_id": e, "stack": s} for e, s in zip(left, (90_000, 60_000, 45_000), strict=True)
    ]
    deal = w.post("/deals", {"method": "icm", "stacks": stacks}, status=201)
    assert sum(s["amount"] for s in deal["shares"]) == 135_000
    w.post("/clock/jump", {"period_index": LEVEL_3})
    w.post("/eliminations", {"eliminations": [{"entry_id": reentry}]})
    w.post("/eliminations", {"eliminations": [{"entry_id": ids["P1"]}]})
    assert Tournament.objects.get(pk=t.pk).status == "finished"

    rows = api.get(f"/tournaments/{t.pk}/results").json()
    by_entry = {r["entry_id"]: r for r in rows}
    assert by_entry[ids["P5"]]["disqualified"] and by_entry[ids["P5"]]["place"] == 4
    assert (by_entry[ids["P5"]]["prize"], by_entry[ids["P5"]]["forfeited"]) == (0, 15_000)
    assert sum(r["prize"] for r in rows) + sum(r["forfeited"] for r in rows) == GUARANTEE
    assert sorted(by_entry[e]["prize"] for e in left) == sorted(s["amount"] for s in deal["shares"])
    paid = w.post(f"/results/{ids['P0']}/pay", {"method": "cash"}, status=201)
    assert paid["amount"] == -by_entry[ids["P0"]]["prize"]
