"""A mystery bounty through the API (docs/rules.md §16.5): 30 players, the phase from 20 left;
the bust-outs before it pay nothing; at the phase's first the 20 envelopes are fixed from the
template, summing to the bounty pool; each pot's winners draw one, every envelope exactly once
to the winner (who takes the last), an undo puts one back. The director's own envelopes, and
the refusals."""

import random

import pytest

from tests.conftest import numbered_players, seat_players
from tests.factories import start
from tourney.bounties.usecases import bounty_winners_name
from tourney.models import AuditEntry, Elimination, Entry, Tournament

pytestmark = pytest.mark.django_db

AMOUNT = 5_000


@pytest.fixture
def mystery(api, room, structure) -> Tournament:
    created = api.post(
        "/tournaments",
        {
            "name": "Mystery Sunday",
            "structure_id": structure.pk,
            "starting_stack": 20_000,
            "buy_in": 10_000,
            "fee": 1_000,
            "room_id": room.pk,
            "bounty": {"kind": "mystery", "amount": AMOUNT, "phase_players": 20},
        },
    )
    assert created.status_code == 201, created.json()
    assert created.json()["bounty"] == {
        "kind": "mystery", "amount": AMOUNT, "phase_level": None, "phase_players": 20,
    }  # fmt: skip
    return Tournament.objects.get(pk=created.json()["id"])


def _left(t) -> list[int]:
    return list(
        Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _bust(api, t, busted, winners):
    response = api.post(
        f"/tournaments/{t.pk}/eliminations",
        {"eliminations": [{"entry_id": busted, "busted_by": list(winners)}]},
    )
    assert response.status_code == 200, response.json()
    return response.json()


def test_20_envelopes_are_each_drawn_exactly_once(api, mystery):
    seat_players(api, mystery, numbered_players(30))
    start(api, mystery)
    assert api.get(f"/tournaments/{mystery.pk}").json()["bounty_pool"] == 30 * AMOUNT
    rng = random.Random(20)
    undone = False
    while len(left := _left(mystery)) > 1:
        busted = rng.choice(left)
        winners = rng.sample([e for e in left if e != busted], k=rng.choice([1, 1, 1, 2]))
        answer = _bust(api, mystery, busted, winners)
        paid = next(r for r in answer["results"] if r["entry_id"] == busted)["bounties"]
        if len(left) > 20:
            assert paid == []  # before the phase: nothing
            continue
        assert sum(b["amount"] for b in paid) > 0 and {b["entry_id"] for b in paid} == set(winners)
        if len(left) == 12 and not undone:
            undone = True
            state = api.get(f"/tournaments/{mystery.pk}/bounties/envelopes").json()
            assert (
                api.post(f"/tournaments/{mystery.pk}/eliminations/{busted}/undo").status_code == 200
            )
            after = api.get(f"/tournaments/{mystery.pk}/bounties/envelopes").json()
            assert after["left"] == state["left"] + 1  # the envelope is back in the pool
    state = api.get(f"/tournaments/{mystery.pk}/bounties/envelopes").json()
    values = [e["value"] for e in state["envelopes"]]
    assert len(values) == 20 and sum(values) == 30 * AMOUNT
    assert values == sorted(values, reverse=True) and values[0] > values[-1]
    standing = Elimination.objects.filter(tournament=mystery, undone_at__isnull=True)
    drawn = list(standing.exclude(envelope=None).values_list("envelope", flat=True))
    assert len(drawn) == len(set(drawn)) == 19  # 19 bust-outs in the phase, one each
    assert state["left"] == 1
    won = {r["entry_id"]: r["won"] for r in api.get(f"/tournaments/{mystery.pk}/bounties").json()}
    assert sum(won.values()) == 30 * AMOUNT  # the champion took the last envelope
    draws = AuditEntry.objects.filter(tournament=mystery, action="bounty.mystery_draw")
    assert draws.count() == 20  # 19 standing and the one undone
    assert AuditEntry.objects.filter(tournament=mystery, action="bounty.envelopes").count() == 1


def test_the_directors_envelopes_before_the_phase_and_the_refusals(api, api_as, director, mystery):
    seat_players(api, mystery, numbered_players(25))
    start(api, mystery)
    url = f"/tournaments/{mystery.pk}/bounties/envelopes"
    pool = 25 * AMOUNT
    wrong = api.put(url, {"values": [pool - 1]})
    assert wrong.status_code == 422 and wrong.json()["code"] == "envelopes_sum"
    assert api.put(url, {"values": []}).status_code == 422
    assert api.put(url, {"values": [-1, pool + 1]}).status_code == 422
    assert api_as("floor").put(url, {"values": [pool]}).status_code == 403
    mine = [50_000, 25_000, 25_000] + [2_500] * 10
    assert api.put(url, {"values": mine}).status_code == 200
    assert [e["value"] for e in api.get(url).json()["envelopes"]] == mine
    for _ in range(6):  # 25 -> 19: the phase starts at 20 left
        left = _left(mystery)
        _bust(api, mystery, left[0], [left[1]])
    state = api.get(url).json()
    assert state["in_phase"] and state["left"] == len(mine) - 1
    again = api.put(url, {"values": [pool]})
    assert again.status_code == 409 and again.json()["code"] == "mystery_phase_started"
    # A bust-out in the phase with no winner named draws when the floor names him.
    left = _left(mystery)
    _bust(api, mystery, left[0], [])
    assert api.get(url).json()["left"] == len(mine) - 1
    bounty_winners_name(
        actor=director, tournament_id=mystery.pk, entry_id=left[0], winners=[left[1]]
    )
    assert api.get(url).json()["left"] == len(mine) - 2


def test_a_knockout_tournament_has_no_envelopes(api, room, structure):
    created = api.post(
        "/tournaments",
        {"name": "KO", "structure_id": structure.pk, "starting_stack": 1_000, "buy_in": 100,
         "room_id": room.pk, "bounty": {"kind": "knockout", "amount": 50, "phase_players": 5}},
    )  # fmt: skip
    assert created.status_code == 422 and created.json()["code"] == "invalid_bounty"
    t = api.post(
        "/tournaments",
        {"name": "KO", "structure_id": structure.pk, "starting_stack": 1_000, "buy_in": 100,
         "room_id": room.pk, "bounty": {"kind": "knockout", "amount": 50}},
    ).json()  # fmt: skip
    assert api.get(f"/tournaments/{t['id']}/bounties/envelopes").json()["code"] == (
        "not_a_mystery_bounty"
    )
