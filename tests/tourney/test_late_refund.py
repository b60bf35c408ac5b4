"""A late entry made by mistake is refunded at the desk (docs/rules.md §2.2, issue 32): within
the house's `late_refund_levels` (default 1: the level it came in), its seat freed, the ledger
back to zero for it; past the limit, or with a rebuy since, refused; the desk offers Refund
only while it may. Time moved by time-machine."""

import pytest
import time_machine
from django.urls import reverse

from clocks.clock.usecases import clocks_advance_due
from tests.conftest import numbered_players, seat_players
from tourney.models import Entry, LedgerEntry

pytestmark = pytest.mark.django_db

T0 = "2026-11-29 19:00:00 +01:00"


def _late(api, tournament, name: str) -> int:
    player = api.post("/players", {"name": name}).json()["id"]
    r = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player})
    assert r.status_code == 201, r.json()
    return r.json()["id"]


@pytest.mark.parametrize(
    ("late_refund_levels", "in_level_1", "in_level_2"),
    [(1, 204, 409), (2, 204, 204), (0, 409, 409)],
)
def test_a_late_entry_is_refunded_within_the_houses_levels(
    api, director_client, tournament, late_refund_levels, in_level_1, in_level_2
):
    tournament.rules_overrides = {"late_refund_levels": late_refund_levels}
    tournament.late_registration_level = 4
    tournament.save(update_fields=["rules_overrides", "late_registration_level"])
    seat_players(api, tournament, numbered_players(10))
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        traveller.shift(5 * 60)
        first, second = _late(api, tournament, "Őri Zsolt"), _late(api, tournament, "Ádám Éva")
        desk = director_client.get(reverse("tourney:desk", args=[tournament.pk])).content.decode()
        assert (f"entries/{first}/unregister" in desk) is (in_level_1 == 204)
        refund = api.delete(f"/tournaments/{tournament.pk}/entries/{first}")
        assert refund.status_code == in_level_1, refund.json()
        traveller.shift(11 * 60)  # 19:16, level 2
        clocks_advance_due()
        later = api.delete(f"/tournaments/{tournament.pk}/entries/{second}")
        assert later.status_code == in_level_2, later.content
    if in_level_1 == 204:
        entry = Entry.objects.get(pk=first)
        assert (entry.status, entry.tournament_table_id, entry.seat) == ("unregistered", None, None)
        rows = LedgerEntry.objects.filter(entry=entry)
        assert sum(rows.values_list("amount", flat=True)) == 0
    else:
        assert refund.json()["code"] == "tournament_started"


def test_a_late_entry_with_a_rebuy_since_is_not_refunded(api, structure, room):
    created = api.post(
        "/tournaments",
        {
            "name": "Rebuy", "structure_id": structure.pk, "starting_stack": 40_000,
            "buy_in": 10_000, "room_id": room.pk, "rebuy_until_level": 3,
            "rebuy_buy_in": 10_000, "rebuy_chips": 40_000, "late_registration_level": 3,
        },
    )  # fmt: skip
    tournament_id = created.json()["id"]
    from tourney.models import Tournament

    tournament = Tournament.objects.get(pk=tournament_id)
    seat_players(api, tournament, numbered_players(6))
    api.post(f"/tournaments/{tournament_id}/clock/start")
    late = _late(api, tournament, "Kovács Péter")
    bought = api.post(f"/tournaments/{tournament_id}/entries/{late}/rebuy", {"stack": 30_000})
    assert bought.status_code == 201, bought.json()
    refused = api.delete(f"/tournaments/{tournament_id}/entries/{late}")
    assert refused.status_code == 409 and refused.json()["code"] == "entry_has_purchases"
