"""Bust-outs, places, balancing, breaking and the final table through the API (docs/rules.md §5,
§6, §7, §11), with the undo of each; the floor's to-do list and its confirmation."""

import pytest

from tables.models import FloorAction, TournamentTable
from tests.conftest import numbered_players, seat_players
from tourney.models import AuditEntry, Elimination, Entry, Tournament

pytestmark = pytest.mark.django_db


def start(api, tournament, names):
    ids = seat_players(api, tournament, names)
    assert api.post(f"/tournaments/{tournament.pk}/clock/start").status_code == 200
    return ids


def bust(api, tournament, *entries):
    """entries: entry ids, or (entry_id, stack) pairs."""
    rows = [
        {"entry_id": e} if isinstance(e, int) else {"entry_id": e[0], "hand_start_stack": e[1]}
        for e in entries
    ]
    return api.post(f"/tournaments/{tournament.pk}/eliminations", {"eliminations": rows})


def counts(tournament) -> dict[int, int]:
    result = {}
    for t in TournamentTable.objects.filter(tournament=tournament, status="open"):
        result[t.number] = Entry.objects.filter(tournament_table=t, status="active").count()
    return result


def seated_at(tournament, number) -> dict[int, int]:
    return dict(
        Entry.objects.filter(
            tournament=tournament, status="active", tournament_table__number=number
        ).values_list("seat", "pk")
    )


def test_rules_11_example_1_the_larger_start_stack_finishes_higher(api, tournament):
    ids = start(api, tournament, numbered_players(15))
    response = bust(api, tournament, (ids["P0"], 12_000), (ids["P1"], 8_000))
    assert response.status_code == 200, response.json()
    places = {r["entry_id"]: (r["place"], r["place_to"]) for r in response.json()["results"]}
    assert places == {ids["P0"]: (14, 14), ids["P1"]: (15, 15)}
    assert Entry.objects.get(pk=ids["P0"]).place == 14


def test_rules_11_example_2_equal_start_stacks_tie(api, tournament):
    ids = start(api, tournament, numbered_players(15))
    response = bust(api, tournament, (ids["P0"], 8_000), (ids["P1"], 8_000))
    places = {r["entry_id"]: (r["place"], r["place_to"]) for r in response.json()["results"]}
    assert places == {ids["P0"]: (14, 15), ids["P1"]: (14, 15)}


def test_a_player_cannot_be_busted_twice_and_bad_input_changes_nothing(api, api_as, tournament):
    ids = start(api, tournament, numbered_players(6))
    assert bust(api, tournament, ids["P0"]).status_code == 200
    desk = api_as("desk")
    audit_before = AuditEntry.objects.count()
    again = bust(api, tournament, ids["P0"])
    assert again.status_code == 409 and again.json()["code"] == "already_eliminated"
    twice = bust(api, tournament, ids["P1"], ids["P1"])
    assert twice.status_code == 422 and twice.json()["code"] == "duplicate_entry"
    mixed = bust(api, tournament, (ids["P1"], 5_000), ids["P2"])
    assert mixed.status_code == 422 and mixed.json()["code"] == "hand_start_stack_required"
    everyone = bust(api, tournament, *[ids[f"P{i}"] for i in range(1, 6)])
    assert everyone.status_code == 409 and everyone.json()["code"] == "last_player"
    unknown = bust(api, tournament, 999_999)
    assert unknown.status_code == 404
    assert bust(desk, tournament, ids["P1"]).status_code == 403
    assert AuditEntry.objects.count() == audit_before
    assert Entry.objects.filter(tournament=tournament, status="active").count() == 5


def test_undo_restores_the_player_and_moves_later_places(api, tournament):
    ids = start(api, tournament, numbered_players(6))
    bust(api, tournament, ids["P0"])  # 6th
    bust(api, tournament, ids["P1"])  # 5th
    seat_before = Elimination.objects.get(entry_id=ids["P0"]).seat
    response = api.post(f"/tournaments/{tournament.pk}/eliminations/{ids['P0']}/undo")
    assert response.status_code == 200, response.json()
    p0 = Entry.objects.get(pk=ids["P0"])
    assert p0.status == "active" and p0.place is None and p0.seat == seat_before
    assert Entry.objects.get(pk=ids["P1"]).place == 6
    assert Elimination.objects.get(entry_id=ids["P1"], undone_at__isnull=True).place == 6
    again = api.post(f"/tournaments/{tournament.pk}/eliminations/{ids['P0']}/undo")
    assert again.status_code == 409 and again.json()["code"] == "not_eliminated"
    # Busted again after the undo: a new row, the old one kept as history.
    assert bust(api, tournament, ids["P0"]).json()["results"][0]["place"] == 5
    assert Elimination.objects.filter(entry_id=ids["P0"]).count() == 2


def test_undo_of_one_of_a_tied_pair_leaves_the_other_alone_at_the_worse_place(api, tournament):
    ids = start(api, tournament, numbered_players(8))
    bust(api, tournament, (ids["P0"], 5_000), (ids["P1"], 5_000))  # tie 7-8
    api.post(f"/tournaments/{tournament.pk}/eliminations/{ids['P0']}/undo")
    row = Elimination.objects.get(entry_id=ids["P1"], undone_at__isnull=True)
    assert (row.place, row.place_to) == (8, 8)


def test_the_last_bust_makes_the_winner_and_its_undo_reopens(api, tournament):
    ids = start(api, tournament, numbered_players(3))
    bust(api, tournament, ids["P0"])
    bust(api, tournament, ids["P1"])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Entry.objects.get(pk=ids["P2"]).place == 1
    api.post(f"/tournaments/{tournament.pk}/eliminations/{ids['P1']}/undo")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert Entry.objects.get(pk=ids["P2"]).place is None


def test_balancing_after_a_bust(api, tournament):
    start(api, tournament, numbered_players(16))  # [8, 8]
    tables = counts(tournament)
    assert sorted(tables.values()) == [8, 8]
    small = min(tables)
    other = max(tables)
    source = TournamentTable.objects.get(tournament=tournament, number=other)
    occupied_source = set(seated_at(tournament, other))
    # Who is big blind next at the source: the first occupied seat after its big blind.
    bb = source.big_blind_seat
    order = [((bb + i - 1) % source.seats) + 1 for i in range(1, source.seats + 1)]
    next_bb_seat = next(s for s in order if s in occupied_source)
    mover = seated_at(tournament, other)[next_bb_seat]
    victims = list(seated_at(tournament, small).values())
    assert bust(api, tournament, victims[0]).json()["actions"] == []  # [8, 7]
    assert bust(api, tournament, victims[1]).json()["actions"] == []  # [8, 6]
    response = bust(api, tournament, victims[2])  # [8, 5]: gap 3 → move one
    actions = response.json()["actions"]
    assert len(actions) == 1
    move = actions[0]
    assert move["kind"] == "move" and move["status"] == "pending"
    assert move["entry_id"] == mover
    assert (move["from_table"], move["from_seat"]) == (other, next_bb_seat)
    assert move["to_table"] == small
    assert sorted(counts(tournament).values()) == [6, 7]
    assert Entry.objects.get(pk=mover).tournament_table.number == small
    pending = api.get(f"/tournaments/{tournament.pk}/actions?status=pending").json()
    assert [a["id"] for a in pending] == [move["id"]]
    done = api.post(f"/tournaments/{tournament.pk}/actions/{move['id']}/done")
    assert done.status_code == 200 and done.json()["action"]["status"] == "done"
    assert api.get(f"/tournaments/{tournament.pk}/actions?status=pending").json() == []
    twice = api.post(f"/tournaments/{tournament.pk}/actions/{move['id']}/done")
    assert twice.status_code == 409 and twice.json()["code"] == "action_not_pending"


def test_undo_of_the_bust_takes_back_the_pending_move(api, tournament):
    start(api, tournament, numbered_players(16))
    tables = counts(tournament)
    small = min(tables)
    victims = list(seated_at(tournament, small).values())
    for victim in victims[:2]:
        bust(api, tournament, victim)
    move = bust(api, tournament, victims[2]).json()["actions"][0]
    response = api.post(f"/tournaments/{tournament.pk}/eliminations/{victims[2]}/undo")
    assert response.status_code == 200, response.json()
    assert [a["id"] for a in response.json()["reverted_actions"]] == [move["id"]]
    assert FloorAction.objects.get(pk=move["id"]).status == "undone"
    assert sorted(counts(tournament).values()) == [6, 8]
    mover = Entry.objects.get(pk=move["entry_id"])
    assert (mover.tournament_table.number, mover.seat) == (move["from_table"], move["from_seat"])


def test_a_table_breaks_when_the_field_fits_fewer_tables(api, tournament):
    """Rimóc: 19 players → 3 tables (7, 6, 6); at 18 the thresholds say 2 tables: the table
    with the fewest players breaks into the seat pool of the other two (docs/rules.md §6.2)."""
    start(api, tournament, numbered_players(19))
    tables = counts(tournament)
    assert sorted(tables.values()) == [6, 6, 7]
    seven = next(n for n, c in tables.items() if c == 7)
    victim = next(iter(seated_at(tournament, seven).values()))
    response = bust(api, tournament, victim)
    actions = response.json()["actions"]
    assert [a["kind"] for a in actions] == ["break_table"]
    broken = actions[0]
    assert len(broken["moves"]) == 6
    assert sorted(counts(tournament).values()) == [9, 9]
    assert TournamentTable.objects.get(
        tournament=tournament, number=broken["from_table"]
    ).status == ("closed")
    cards = [m["card"] for m in broken["moves"]]
    assert len(set(cards)) == 6 and all(cards)
    # Undo while the break is still to do: the table reopens and its players go back.
    api.post(f"/tournaments/{tournament.pk}/eliminations/{victim}/undo")
    assert sorted(counts(tournament).values()) == [6, 6, 7]
    assert FloorAction.objects.get(pk=broken["id"]).status == "undone"


def test_the_final_table_forms_at_its_size_with_a_redraw(api, tournament):
    """Rimóc: final table 9. Ten players on two tables stay on two; the 10th out redraws."""
    ids = start(api, tournament, numbered_players(11))
    first = bust(api, tournament, ids["P0"]).json()["actions"]
    assert len(counts(tournament)) == 2  # 10 players: the thresholds say 1, the final says 2
    assert all(a["kind"] != "final_table_redraw" for a in first)
    response = bust(api, tournament, ids["P1"])
    actions = response.json()["actions"]
    assert [a["kind"] for a in actions] == ["final_table_redraw"]
    redraw = actions[0]
    assert len(redraw["moves"]) == 9 and redraw["button_seat"] is not None
    assert list(counts(tournament).values()) == [9]
    host = TournamentTable.objects.get(tournament=tournament, status="open")
    assert host.button_seat == redraw["button_seat"] and host.seats == 9
    assert sorted(seated_at(tournament, host.number)) == list(range(1, 10))
    done = api.post(f"/tournaments/{tournament.pk}/actions/{redraw['id']}/done").json()
    assert all(m["status"] == "done" for m in done["action"]["moves"])


def test_a_move_at_a_table_without_a_known_button_waits_for_the_floor_to_name_the_mover(
    api, tournament
):
    start(api, tournament, numbered_players(16))
    tables = counts(tournament)
    small, large = min(tables), max(tables)
    TournamentTable.objects.filter(tournament=tournament, number=large).update(
        button_seat=None, small_blind_seat=None, big_blind_seat=None
    )
    victims = list(seated_at(tournament, small).values())
    bust(api, tournament, victims[0])
    bust(api, tournament, victims[1])
    move = bust(api, tournament, victims[2]).json()["actions"][0]
    assert move["entry_id"] is None and move["from_seat"] is None
    assert sorted(counts(tournament).values()) == [5, 8]  # nobody moved yet
    refused = api.post(f"/tournaments/{tournament.pk}/actions/{move['id']}/done")
    assert refused.status_code == 409 and refused.json()["code"] == "mover_unknown"
    wrong_table = api.post(
        f"/tournaments/{tournament.pk}/actions/{move['id']}/done", {"entry_id": victims[3]}
    )
    assert wrong_table.status_code == 409
    named = next(iter(seated_at(tournament, large).values()))
    done = api.post(f"/tournaments/{tournament.pk}/actions/{move['id']}/done", {"entry_id": named})
    assert done.status_code == 200, done.json()
    entry = Entry.objects.get(pk=named)
    assert (entry.tournament_table.number, entry.seat) == (move["to_table"], move["to_seat"])
    assert sorted(counts(tournament).values()) == [6, 7]
