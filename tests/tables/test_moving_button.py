"""The moving button through the dealer's hand reports (docs/rules.md §4.1): under Atlas's
rules (`dead_button` off) the button goes to the next player after it and never sits on an
empty seat; under the dead-button rule of the other profiles the same bust-out leaves the
button on the empty seat."""

import pytest

from tables.models import TournamentTable
from tests.conftest import friday_deepstack, seat_players
from tests.factories import start
from tourney.models import Entry

pytestmark = pytest.mark.django_db


def _blinds(table: TournamentTable) -> tuple:
    table.refresh_from_db()
    return table.button_seat, table.small_blind_seat, table.big_blind_seat


@pytest.mark.parametrize(("profile", "moving"), [("atlas", True), ("rimoc", False)])
def test_the_button_after_the_small_blind_busts(api, director, structure, room, profile, moving):
    tournament = friday_deepstack(director, structure, room, house_rules=profile)
    seat_players(api, tournament, [f"P{i}" for i in range(5)])
    start(api, tournament)
    table = TournamentTable.objects.get(tournament=tournament, status="open")
    report = f"/tournaments/{tournament.pk}/tables/{table.number}/hands"
    assert api.post(report, {}).status_code == 200
    button, small, _big = _blinds(table)
    by_seat = dict(
        Entry.objects.filter(tournament=tournament, status="active").values_list("seat", "pk")
    )
    r = api.post(
        f"/tournaments/{tournament.pk}/eliminations",
        {"eliminations": [{"entry_id": by_seat[small]}]},
    )
    assert r.status_code == 200, r.json()
    assert api.post(report, {}).status_code == 200
    after_button = _blinds(table)[0]
    occupied = set(by_seat) - {small}
    if moving:  # on to the next player after the button, past the empty seat
        assert after_button == min((s for s in occupied if s > button), default=min(occupied))
    else:
        assert after_button == small  # the dead button: on the empty seat
