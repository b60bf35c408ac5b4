"""Undo wherever an action is listed (issue 13 item 6): the console's activity panel, the audit
log and the finished list offer each action's own undo, show "Undone" once taken back, and a
refused undo answers why."""

import pytest
from django.urls import reverse

from tests.conftest import numbered_players, seat_players
from tests.factories import bust, start
from tourney.audit.selectors import undo_links
from tourney.models import AuditEntry

pytestmark = pytest.mark.django_db


def links(director, tournament) -> dict[str, list]:
    rows = undo_links(AuditEntry.objects.filter(tournament=tournament), director)
    found: dict[str, list] = {}
    for a in rows:
        if a.undo:
            found.setdefault(a.action, []).append(a.undo)
    return found


def test_each_listed_action_offers_its_own_undo(api, director, tournament):
    ids = seat_players(api, tournament, numbered_players(6))
    before_start = links(director, tournament)["entry.register"]
    assert {u.url.rsplit("/", 2)[-1] for u in before_start} == {"refund"}
    start(api, tournament)
    t = tournament.pk
    assert "entry.register" not in links(director, tournament)  # playing: no refund now
    bust(api, tournament, (ids["P5"], None))
    penalty = api.post(
        f"/tournaments/{t}/penalties",
        {"entry_id": ids["P1"], "kind": "warning", "reason": "Language"},
    ).json()["penalty"]
    api.post(f"/tournaments/{t}/entries/{ids['P2']}/absent")
    found = links(director, tournament)
    assert [u.url for u in found["entry.eliminate"]] == [
        f"/api/v1/tournaments/{t}/eliminations/{ids['P5']}/undo"
    ]
    assert (
        found["penalty.warning"][0].url == f"/api/v1/tournaments/{t}/penalties/{penalty['id']}/undo"
    )
    assert found["entry.absent"][0].url.endswith(f"/entries/{ids['P2']}/arrived")
    assert not any(u.done for group in found.values() for u in group)

    for undo in (
        found["entry.eliminate"][0],
        found["penalty.warning"][0],
        found["entry.absent"][0],
    ):
        assert api.post(undo.url.removeprefix("/api/v1")).status_code == 200
    again = links(director, tournament)
    assert again["entry.eliminate"][0].done and again["penalty.warning"][0].done
    assert again["entry.absent"][0].done


def test_a_refused_undo_says_why(api, director, tournament):
    ids = seat_players(api, tournament, numbered_players(4))
    start(api, tournament)
    t = tournament.pk
    bust(api, tournament, (ids["P3"], None))
    stacks = [{"entry_id": ids[n], "stack": 40_000} for n in ("P0", "P1", "P2")]
    api.post(f"/tournaments/{t}/deals", {"method": "chip_chop", "stacks": stacks})
    undo = links(director, tournament)["entry.eliminate"][0]
    refused = api.post(undo.url.removeprefix("/api/v1"))
    assert refused.status_code == 409 and refused.json()["code"] == "deal_made"
    assert "undo the deal first" in refused.json()["detail"]
    deal = links(director, tournament)["deal.make"][0]
    assert api.post(deal.url.removeprefix("/api/v1")).status_code == 200
    assert api.post(undo.url.removeprefix("/api/v1")).status_code == 200


def test_the_floor_sees_no_desk_undo_and_the_display_none(api, api_as, director, tournament):
    from tests.conftest import make_staff

    seat_players(api, tournament, ["A", "B"])
    floor, display = make_staff("floor1", "floor"), make_staff("screen", "display")
    rows = undo_links(AuditEntry.objects.filter(tournament=tournament), floor)
    assert not [a for a in rows if a.undo and a.action == "entry.register"]
    assert all(a.undo is None for a in undo_links(AuditEntry.objects.all(), display))


def test_the_console_activity_and_audit_log_and_finished_list_show_undo(
    api, director, tournament, director_client
):
    ids = seat_players(api, tournament, numbered_players(4))
    start(api, tournament)
    bust(api, tournament, (ids["P3"], None))
    t = tournament.pk
    url = f"/api/v1/tournaments/{t}/eliminations/{ids['P3']}/undo"
    activity = director_client.get(reverse("tourney:console_activity", args=[t])).content.decode()
    assert f'data-row-undo="{url}"' in activity
    audit = director_client.get(reverse("tourney:audit_log") + f"?tournament={t}").content.decode()
    assert f'data-row-undo="{url}"' in audit
    panel = director_client.get(reverse("payouts:console_panel", args=[t])).content.decode()
    assert f'data-row-undo="{url}"' in panel
    api.post(url.removeprefix("/api/v1"))
    activity = director_client.get(reverse("tourney:console_activity", args=[t])).content.decode()
    assert "data-undone" in activity and f'data-row-undo="{url}"' not in activity


def test_a_move_called_off_by_a_late_registration_offers_no_undo(api, director, room, structure):
    """Production run: a pending move called off for a late registration (floor.call_off: its
    mover stays, the newcomer takes the seat) still offered Undo in the lists, and the undo was
    then refused as "play has moved on". A called-off move has nothing to take back
    (docs/rules.md §3.4): no button, and the API's refusal says it was called off."""
    from tables.models import FloorAction
    from tests.factories import entries_register, pending_move_into_table_one

    tournament, move = pending_move_into_table_one(director, room, structure, (1, 2, 3))
    entries_register(director, tournament, 2, start=100)  # the free seat, then the move's seat
    assert FloorAction.objects.get(pk=move.pk).status == FloorAction.Status.SUPERSEDED
    assert AuditEntry.objects.filter(action="floor.call_off", target_id=move.pk).exists()
    rows = undo_links(
        AuditEntry.objects.filter(tournament=tournament, action__startswith="floor."), director
    )
    listed = [a for a in rows if a.target_id == move.pk]
    assert listed and all(a.undo is None for a in listed), [(a.action, a.undo) for a in listed]
    refused = api.post(f"/tournaments/{tournament.pk}/actions/{move.pk}/undo")
    assert refused.status_code == 409, refused.content
    assert refused.json() == {
        "code": "action_called_off",
        "detail": "This move was called off: its player did not move; there is nothing to undo.",
    }
