"""A pending mover busts where he sits (docs/rules.md §3.4, §11): a player told to move whose
move is not confirmed yet has not left his old seat. Busted there (from his old table's dealer
link, or by the floor), the elimination, its audit entry, its event and the undo's log line
name his old table and seat, not the chart's destination; his move is void, and audited as
such (floor.void, read in the staff's language); undoing the bust puts him back in the seat he
busted in, and the floor plans again what the field needs."""

import pytest
from django.urls import reverse

from tables.dealer_links.selectors import dealer_token
from tables.floor.selectors import pending_origins
from tables.models import FloorAction
from tables.seating.selectors import table_players_drift
from tests.conftest import ApiClient
from tests.factories import pending_move_into_table_one
from tourney.models import AuditEntry, Elimination, Entry, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


def _where(entry_id: int) -> tuple:
    entry = Entry.objects.select_related("tournament_table").get(pk=entry_id)
    return entry.status, entry.tournament_table.number, entry.seat


def _assert_void_audited(move: FloorAction, actor_name: str) -> None:
    """The voided move has its own audit entry (every write is audited; a call-off has
    floor.call_off): floor.void, by whoever reported the bust, naming the player and the
    move's tables and seats."""
    void = AuditEntry.objects.get(action="floor.void", target_id=move.pk)
    name = Entry.objects.get(pk=move.entry_id).player.name
    assert void.actor_name == actor_name and void.target_type == "flooraction"
    assert (void.before["status"], void.after["status"]) == ("pending", "superseded")
    assert void.summary == (
        f"Move void: {name} went out at table {move.from_table} seat {move.from_seat} before "
        f"moving to table {move.to_table} seat {move.to_seat}"
    )


@pytest.mark.parametrize("by", ["old tables dealer link", "floor"])
def test_a_pending_mover_busts_in_his_old_seat_and_its_undo_brings_him_back_there(
    director, room, structure, api, by
):
    """The last session's finding: busted from his old table's link, the elimination, the
    audit entry and the event said the table and seat the chart promised him (1, 2) while he
    sat at table 2; its undo seated him at table 1, with no move pending, though he had never
    got up from table 2."""
    tournament, move = pending_move_into_table_one(director, room, structure)
    mover = move.entry_id
    sat = (move.from_table, move.from_seat)
    assert _where(mover) == ("active", move.to_table, move.to_seat) != ("active", *sat)
    client = ApiClient(dealer_token(tournament.pk, move.from_table, 0)) if by != "floor" else api
    busted = client.post(
        f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": mover}]}
    )
    assert busted.status_code == 200, busted.content

    result = busted.json()["results"][0]
    assert (result["table"], result["seat"]) == sat
    row = Elimination.objects.get(entry_id=mover)
    assert (row.table_number, row.seat) == sat
    audit = AuditEntry.objects.get(action="entry.eliminate", target_id=str(mover))
    assert (audit.before["table"], audit.before["seat"]) == sat
    assert (audit.after["table"], audit.after["seat"]) == sat
    event = TournamentEvent.objects.filter(kind="eliminations").last()
    assert (event.payload["results"][0]["table"], event.payload["results"][0]["seat"]) == sat
    assert _where(mover) == ("eliminated", *sat)
    move.refresh_from_db()
    assert move.status == FloorAction.Status.SUPERSEDED  # void: holds no seat any more
    _assert_void_audited(move, audit.actor_name)
    assert table_players_drift(tournament.pk) == {}

    undone = api.post(f"/tournaments/{tournament.pk}/eliminations/{mover}/undo")
    assert undone.status_code == 200, undone.content
    assert (undone.json()["entry"]["table"], undone.json()["entry"]["seat"]) == sat
    line = AuditEntry.objects.filter(action="entry.eliminate_undo").get()
    assert line.display_summary().endswith(f"back at table {sat[0]} seat {sat[1]}")
    # Back where he sat: the field still wants a player at table 1, so the floor moves one
    # again, its move leading from the seat he sits in (or he is charted there, unmoved).
    origin = pending_origins(tournament, [mover]).get(mover)
    where = (origin[0], origin[1]) if origin else _where(mover)[1:]
    assert where == sat and _where(mover)[0] == "active"
    assert FloorAction.objects.get(pk=move.pk).status == FloorAction.Status.SUPERSEDED
    assert table_players_drift(tournament.pk) == {}
    seats = list(
        Entry.objects.filter(tournament=tournament, status="active").values_list(
            "tournament_table__number", "seat"
        )
    )
    assert len(seats) == len(set(seats)) == 4  # no seat told to two people


def test_under_hand_for_hand_a_pending_mover_is_placed_with_his_old_tables_busts(
    director, room, structure, api
):
    """Hand-for-hand, WSOP rule (§11.5): busts at the same table are ordered by their stacks,
    busts at different tables tie. The mover and his old table's neighbour bust in the same
    hand: both at table 2, the larger stack finishes higher (3rd and 4th), not a tie (3-4) as
    when the mover was taken to be at table 1."""
    tournament, move = pending_move_into_table_one(director, room, structure)
    Tournament.objects.filter(pk=tournament.pk).update(rules_overrides={"h4h_mode": "wsop"})
    on = api.put(f"/tournaments/{tournament.pk}/hand-for-hand", {"active": True})
    assert on.status_code == 200, on.content
    neighbour = (
        Entry.objects.filter(
            tournament=tournament, status="active", tournament_table__number=move.from_table
        )
        .exclude(pk=move.entry_id)
        .first()
    )
    busted = ApiClient(dealer_token(tournament.pk, move.from_table, 0)).post(
        f"/tournaments/{tournament.pk}/eliminations",
        {
            "eliminations": [
                {"entry_id": move.entry_id, "hand_start_stack": 5_000},
                {"entry_id": neighbour.pk, "hand_start_stack": 8_000},
            ]
        },
    )
    assert busted.status_code == 200, busted.content
    places = {
        r["entry_id"]: (r["place"], r["place_to"], r["table"]) for r in busted.json()["results"]
    }
    assert places == {
        neighbour.pk: (3, 3, move.from_table),
        move.entry_id: (4, 4, move.from_table),
    }


def test_the_void_move_reads_in_hungarian_in_the_consoles_activity_log(
    director, room, structure, api, director_client
):
    """The bust's void move is stored untranslated and read in the staff's language, like
    every floor line of the console's activity log."""
    tournament, move = pending_move_into_table_one(director, room, structure)
    busted = api.post(
        f"/tournaments/{tournament.pk}/eliminations",
        {"eliminations": [{"entry_id": move.entry_id}]},
    )
    assert busted.status_code == 200, busted.content
    assert AuditEntry.objects.filter(action="floor.void").count() == 1
    name = Entry.objects.get(pk=move.entry_id).player.name
    director_client.cookies["django_language"] = "hu"
    page = director_client.get(reverse("tourney:console_activity", args=[tournament.pk]))
    assert page.status_code == 200
    assert (
        f"Átültetés érvénytelen: {name} kiesett a(z) {move.from_table}. asztal "
        f"{move.from_seat}. székén, mielőtt átült volna a(z) {move.to_table}. asztal "
        f"{move.to_seat}. székére"
    ) in page.content.decode()
