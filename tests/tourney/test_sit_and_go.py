"""Sit-and-go series through the API (docs/rules.md §19): ten players register at the desk in
one step each; nine fill the first event seat by seat, it draws its button by high card and
starts itself when the countdown is over (the timers' tick, time moved by time-machine); the
tenth opens the next on another table. Registration closes at the start; Mirage's clock call
at a sit-and-go's table is 30 s, not the final table's 60 s; played to a winner, paid, and the
gaming day's report equals the ledger. The refusals."""

import datetime

import pytest
import time_machine

from tests.conftest import numbered_players
from tourney.models import Entry, LedgerEntry, Tournament
from tourney.sit_and_go.tasks import sng_tick

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 12, 5, 20, 0, tzinfo=datetime.UTC)


def _series(api, room, structure, **extra) -> dict:
    body = {
        "name": "Legend SNG 9-max",
        "room_id": room.pk,
        "structure_id": structure.pk,
        "starting_stack": 5_000,
        "buy_in": 9_000,
        "fee": 1_000,
        "seats": 9,
        "house_rules": "mirage",
        "countdown_seconds": 60,
        **extra,
    }
    r = api.post("/sng-series", body)
    assert r.status_code == 201, r.json()
    return r.json()


def _register(api, series_id, names) -> list[dict]:
    out = []
    for name in names:
        player_id = api.post("/players", {"name": name}).json()["id"]
        r = api.post(f"/sng-series/{series_id}/entries", {"player_id": player_id})
        assert r.status_code == 201, r.json()
        out.append(r.json())
    return out


def test_a_series_fills_starts_itself_and_opens_the_next(api, room, structure, payout_templates):
    series = _series(api, room, structure)
    with time_machine.travel(T0, tick=False) as traveller:
        seats = _register(api, series["id"], numbered_players(10))
        first, second = seats[0]["tournament_id"], seats[9]["tournament_id"]
        assert {s["tournament_id"] for s in seats[:9]} == {first} and second != first
        assert sorted(s["seat"] for s in seats[:9]) == list(range(1, 10))  # drawn as he came
        assert len({s["table"] for s in seats[:9]}) == 1 and seats[9]["table"] != seats[0]["table"]
        assert seats[8]["starts_at_ms"] == int((T0.timestamp() + 60) * 1000)
        state = api.get(f"/sng-series/{series['id']}").json()
        assert state["filling"] == {"tournament_id": second, "entries": 1}
        assert [s["tournament_id"] for s in state["starting"]] == [first]
        event = api.get(f"/tournaments/{first}").json()
        assert event["status"] == "registering"
        assert api.get(f"/tournaments/{first}/tables").status_code == 200

        traveller.shift(59)
        assert sng_tick() == 0  # the countdown is not over
        traveller.shift(1)
        assert sng_tick() == 1
        assert api.get(f"/tournaments/{first}").json()["status"] == "running"
        assert api.get(f"/tournaments/{first}/clock").json()["status"] == "running"
        assert sng_tick() == 0  # started once
        state = api.get(f"/sng-series/{series['id']}").json()
        assert state["running"] == [first] and state["starting"] == []

        late = api.post("/players", {"name": "Late Larry"}).json()["id"]
        closed = api.post(f"/tournaments/{first}/entries", {"player_id": late})
        assert closed.status_code == 409 and closed.json()["code"] == "registration_closed"

        entry = Entry.objects.filter(tournament_id=first).first()
        traveller.shift(5)
        call = api.post(
            f"/tournaments/{first}/tables/{seats[0]['table']}/clock-calls",
            {"seat": entry.seat, "elapsed_seconds": 95},
        )
        assert call.status_code == 201, call.json()
        assert call.json()["seconds"] == 30 and call.json()["final_table"] is False

        _play_to_a_winner(api, first)
        results = api.get(f"/tournaments/{first}/results").json()
        for row in results if isinstance(results, list) else results["rows"]:
            if row["prize"] > 0:
                paid = api.post(f"/tournaments/{first}/results/{row['entry_id']}/pay")
                assert paid.status_code == 201, paid.json()
        state = api.get(f"/sng-series/{series['id']}").json()
        assert state["finished"] == [first]

        report = api.get(f"/sng-series/{series['id']}/report?date=2026-12-05").json()
        ledger = LedgerEntry.objects.filter(tournament_id=first)
        total = {k: sum(ledger.filter(kind=k).values_list("amount", flat=True)) for k in
                 ("buy_in", "fee", "payout")}  # fmt: skip
        assert report == {
            "date": "2026-12-05",
            "events": 1,
            "entries": 9,
            "buy_ins": total["buy_in"],
            "fees": total["fee"],
            "prizes": -total["payout"],
        }
        assert (report["buy_ins"], report["fees"]) == (81_000, 9_000)
        assert report["prizes"] == 81_000  # every prize paid: the pool, to the unit
        other_day = api.get(f"/sng-series/{series['id']}/report?date=2026-12-04").json()
        assert other_day["events"] == 0 and other_day["buy_ins"] == 0


def _play_to_a_winner(api, tournament_id: int) -> None:
    while True:
        left = list(
            Entry.objects.filter(tournament_id=tournament_id, status=Entry.Status.ACTIVE)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if len(left) == 1:
            break
        r = api.post(
            f"/tournaments/{tournament_id}/eliminations",
            {"eliminations": [{"entry_id": left[0]}]},
        )
        assert r.status_code == 200, r.json()
    assert Tournament.objects.get(pk=tournament_id).status == "finished"


def test_a_refund_in_the_countdown_stops_it(api, room, structure):
    series = _series(api, room, structure, seats=6, countdown_seconds=30)
    with time_machine.travel(T0, tick=False) as traveller:
        seats = _register(api, series["id"], numbered_players(6))
        event = seats[0]["tournament_id"]
        assert seats[-1]["starts_at_ms"] is not None
        r = api.post(f"/tournaments/{event}/entries/{seats[0]['entry_id']}/refund")
        assert r.status_code in (200, 201), r.json()
        traveller.shift(31)
        assert sng_tick() == 0  # 5 of 6: back to filling, no start
        state = api.get(f"/sng-series/{series['id']}").json()
        assert state["filling"] == {"tournament_id": event, "entries": 5}
        again = _register(api, series["id"], ["Comeback Kid"])[0]
        assert again["tournament_id"] == event and again["starts_at_ms"] is not None


def test_refusals(api, api_as, room, structure):
    for body, code in [
        ({"seats": 11}, 422),
        ({"seats": 1}, 422),
        ({"buy_in": -1}, 422),
        ({"countdown_seconds": 901}, 422),
        ({"name": ""}, 422),
        ({"house_rules": "nowhere"}, 422),
        ({"buyin": 100}, 422),
    ]:
        base = {
            "name": "X",
            "room_id": room.pk,
            "structure_id": structure.pk,
            "starting_stack": 5_000,
            "buy_in": 9_000,
            "seats": 9,
        }
        assert api.post("/sng-series", {**base, **body}).status_code == code, body
    assert api.post("/sng-series", ["x"]).status_code == 422
    series = _series(api, room, structure, seats=10)
    assert api_as("desk").post("/sng-series", {}).status_code in (403, 422)
    assert api.get("/sng-series/999999").json()["code"] == "sng_series_not_found"
    assert api.post(f"/sng-series/{series['id']}/entries", {"player_id": 999999}).status_code == 404
    bad_date = api.get(f"/sng-series/{series['id']}/report?date=yesterday")
    assert bad_date.status_code == 422 and bad_date.json()["code"] == "invalid_date"
