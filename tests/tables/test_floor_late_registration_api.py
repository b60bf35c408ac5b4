"""The floor through the API: short-handed final tables (docs/rules.md §7.1), the waiting
list (§2.1), a table opened mid-event (§3.7), a table back in play (§4.7), recent movers (§5.4)
and holding during late registration (§5.10)."""

import pytest

from tables.models import TournamentTable
from tests.conftest import numbered_players
from tourney.models import AuditEntry, Entry, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


def create(api, room, structure, **fields) -> int:
    body = {
        "name": "Short-handed",
        "structure_id": structure.pk,
        "starting_stack": 40_000,
        "buy_in": 10_000,
        "fee": 2_000,
        "room_id": room.pk,
        **fields,
    }
    # The floor's rules of each profile, not Doyle's members-only desk (tests/tourney/
    # test_membership.py): these players are created at the API without a membership.
    body["rules"] = {"membership_required": False, **body.get("rules", {})}
    response = api.post("/tournaments", body)
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def register(api, tid: int, names) -> dict[str, int]:
    ids = {}
    for name in names:
        player_id = api.post("/players", {"name": name}).json()["id"]
        entry = api.post(f"/tournaments/{tid}/entries", {"player_id": player_id})
        assert entry.status_code == 201, entry.json()
        ids[name] = entry.json()["id"]
    return ids


def start(api, tid: int, names) -> dict[str, int]:
    ids = register(api, tid, names)
    assert api.post(f"/tournaments/{tid}/draw").status_code == 200
    assert api.post(f"/tournaments/{tid}/clock/start").status_code == 200
    return ids


def bust(api, tid: int, *entry_ids: int):
    body = {"eliminations": [{"entry_id": e} for e in entry_ids]}
    response = api.post(f"/tournaments/{tid}/eliminations", body)
    assert response.status_code == 200, response.json()
    return response.json()


def open_counts(tid: int) -> list[int]:
    return sorted(
        Entry.objects.filter(
            tournament_id=tid, status="active", tournament_table__status="open"
        ).values_list("tournament_table__number", flat=True)
    )


def playing(tid: int) -> list[int]:
    return list(
        Entry.objects.filter(tournament_id=tid, status="active")
        .order_by("pk")
        .values_list("pk", flat=True)
    )


# --- item 12: short-handed final tables ----------------------------------------------------


@pytest.mark.parametrize("profile", ["doyle", "tda2024", "mirage", "veszprem", "rimoc", "atlas"])
def test_six_max_final_table_forms_seven_handed_in_every_profile(api, room, structure, profile):
    """6-max: Doyle #8 (7 at six-handed tables) and TDA RP-9 (7- and 6-handed events go to a
    7-handed final table); no profile forms a 9- or 10-handed final table at six-max."""
    # Rimóc's thresholds are for 9 seats a table (18 = 2 x 9): a 6-max event clears them.
    rules = {"table_thresholds": None} if profile == "rimoc" else {}
    tid = create(api, room, structure, house_rules=profile, seats_per_table=6, rules=rules)
    start(api, tid, numbered_players(13))
    assert len(set(open_counts(tid))) >= 2
    while len(playing(tid)) > 8:
        bust(api, tid, playing(tid)[0])
        assert TournamentTable.objects.filter(tournament_id=tid, status="open").count() >= 2
    result = bust(api, tid, playing(tid)[0])
    kinds = [a["kind"] for a in result["actions"]]
    assert kinds == ["final_table_redraw"], kinds
    assert len(result["actions"][0]["moves"]) == 7
    host = TournamentTable.objects.get(tournament_id=tid, status="open")
    assert host.seats == 7


def test_nine_max_doyle_keeps_its_ten_handed_final_table(api, room, structure):
    tid = create(api, room, structure, house_rules="doyle")
    start(api, tid, numbered_players(12))
    while len(playing(tid)) > 11:
        bust(api, tid, playing(tid)[0])
    assert TournamentTable.objects.filter(tournament_id=tid, status="open").count() == 2
    result = bust(api, tid, playing(tid)[0])
    assert [a["kind"] for a in result["actions"]] == ["final_table_redraw"]
    assert len(result["actions"][0]["moves"]) == 10


def test_short_handed_final_table_size_is_a_house_rule_the_tournament_overrides(
    api, room, structure
):
    tid = create(
        api,
        room,
        structure,
        house_rules="tda2024",
        seats_per_table=6,
        rules={"short_handed_final_table_size": 6},
    )
    start(api, tid, numbered_players(13))
    while len(playing(tid)) > 7:
        bust(api, tid, playing(tid)[0])
        assert TournamentTable.objects.filter(tournament_id=tid, status="open").count() >= 2
    result = bust(api, tid, playing(tid)[0])
    assert [a["kind"] for a in result["actions"]] == ["final_table_redraw"]
    assert len(result["actions"][0]["moves"]) == 6


# --- item 5: the waiting list ----------------------------------------------------------------


def statuses(tid: int, ids) -> list[str]:
    by_id = dict(Entry.objects.filter(pk__in=list(ids)).values_list("pk", "status"))
    return [by_id[i] for i in ids]


def full_house(api, room, structure, names=18, waiting=2, **fields):
    """Two tables of 9 (18 seats), full and running, with `waiting` alternates."""
    tid = create(api, room, structure, house_rules="tda2024", table_numbers=[1, 2], **fields)
    ids = start(api, tid, numbered_players(names))
    alternates = register(api, tid, [f"W{i}" for i in range(waiting)])
    assert statuses(tid, alternates.values()) == ["waiting"] * waiting
    return tid, ids, alternates


def test_a_bust_out_seats_the_first_alternate_at_once(api, room, structure):
    tid, ids, alternates = full_house(api, room, structure)
    victim = Entry.objects.get(pk=ids["P3"])
    result = bust(api, tid, victim.pk)
    first = Entry.objects.get(pk=alternates["W0"])
    assert first.status == "active" and first.tournament_table_id is not None
    assert (first.tournament_table_id, first.seat) == (victim.tournament_table_id, victim.seat)
    assert Entry.objects.get(pk=alternates["W1"]).status == "waiting"
    assert result["actions"] == []  # the seat was refilled: nothing to balance
    promote = AuditEntry.objects.get(action="entry.promote", target_id=first.pk)
    assert promote.after["cause_elimination_id"] is not None
    assert TournamentEvent.objects.filter(kind="entry", payload__action="promote").count() == 1
    # Places: the field is one larger, the busted player finished one place lower.
    assert api.get(f"/tournaments/{tid}").json()["players_remaining"] == 18
    assert Entry.objects.get(pk=victim.pk).place == 20 - 1


def test_the_bust_out_answer_says_the_place_after_the_alternate_sat_down(api, room, structure):
    """The third evening production run: with two alternates waiting, three bust-outs each
    answered "place 45" (the dealer's and the console's toasts said so), though the alternate
    each one seated moved him down one place at once: 47th, 46th, 45th in the results."""
    tid, ids, _alternates = full_house(api, room, structure)
    result = bust(api, tid, ids["P3"])
    stored = Entry.objects.get(pk=ids["P3"]).place
    assert stored == 20 - 1
    assert [(r["entry_id"], r["place"], r["place_to"]) for r in result["results"]] == [
        (ids["P3"], stored, stored)
    ]
    assert api.get(f"/tournaments/{tid}/results").json()[0]["place"] == stored


def test_later_entries_queue_behind_the_list_in_order(api, room, structure):
    tid, ids, alternates = full_house(api, room, structure, waiting=1)
    late = register(api, tid, ["Late"])["Late"]
    assert Entry.objects.get(pk=late).status == "waiting"
    bust(api, tid, ids["P0"])
    assert statuses(tid, [alternates["W0"], late]) == ["active", "waiting"]
    bust(api, tid, ids["P1"])
    assert statuses(tid, [alternates["W0"], late]) == ["active", "active"]
    # The list is empty and a seat is free: the next entry sits down at once.
    bust(api, tid, ids["P2"])
    seated = register(api, tid, ["Next"])["Next"]
    assert Entry.objects.get(pk=seated).status == "active"


def test_an_entry_finds_the_alternates_seated_first_when_seats_are_free(api, room, structure):
    """A seat freed outside the service (or before this rule) with alternates waiting: the
    next registration seats them first, in order, then queues behind or sits down."""
    tid, ids, alternates = full_house(api, room, structure, waiting=2)
    Entry.objects.filter(pk__in=[ids["P0"], ids["P1"], ids["P2"]]).update(
        status="eliminated", tournament_table=None, seat=None
    )
    newcomer = register(api, tid, ["New"])["New"]
    assert statuses(tid, [alternates["W0"], alternates["W1"], newcomer]) == ["active"] * 3


def test_undoing_the_bust_out_sends_its_alternate_back_to_the_head_of_the_list(
    api, room, structure
):
    tid, ids, alternates = full_house(api, room, structure, waiting=2)
    victim = Entry.objects.get(pk=ids["P5"])
    seat = (victim.tournament_table_id, victim.seat)
    bust(api, tid, victim.pk)
    assert Entry.objects.get(pk=alternates["W0"]).status == "active"
    undo = api.post(f"/tournaments/{tid}/eliminations/{victim.pk}/undo")
    assert undo.status_code == 200, undo.json()
    back = Entry.objects.get(pk=victim.pk)
    assert back.status == "active" and (back.tournament_table_id, back.seat) == seat
    first = Entry.objects.get(pk=alternates["W0"])
    assert first.status == "waiting" and first.tournament_table_id is None
    assert AuditEntry.objects.filter(action="entry.promote_undo", target_id=first.pk).exists()
    # Still first in line: the next bust-out seats him, not W1.
    bust(api, tid, ids["P6"])
    assert statuses(tid, [alternates["W0"], alternates["W1"]]) == ["active", "waiting"]
    # 19 entries in the field (18 and W0): the only player out is last.
    out = Entry.objects.filter(tournament_id=tid, status="eliminated")
    assert list(out.values_list("place", flat=True)) == [19]


def test_an_alternate_who_moved_on_keeps_playing_after_the_undo(api, room, structure):
    tid, ids, alternates = full_house(api, room, structure, waiting=1)
    victim = ids["P5"]
    bust(api, tid, victim)
    alternate = Entry.objects.get(pk=alternates["W0"])
    gone = Entry.objects.get(pk=ids["P0"])
    Entry.objects.filter(pk=gone.pk).update(status="eliminated", tournament_table=None, seat=None)
    # The floor has moved the alternate since, into the seat P0 left.
    Entry.objects.filter(pk=alternate.pk).update(
        tournament_table=gone.tournament_table_id, seat=gone.seat
    )
    undo = api.post(f"/tournaments/{tid}/eliminations/{victim}/undo")
    assert undo.status_code == 200, undo.json()
    assert statuses(tid, [alternate.pk, victim]) == ["active", "active"]


def test_no_alternate_is_seated_once_late_registration_has_closed(api, room, structure):
    tid, ids, alternates = full_house(api, room, structure, waiting=1, late_registration_level=1)
    assert api.post(f"/tournaments/{tid}/clock/jump", {"period_index": 2}).status_code == 200
    bust(api, tid, ids["P0"])
    assert statuses(tid, [alternates["W0"]]) == ["waiting"]


def test_a_disqualification_frees_the_seat_for_the_list(api, room, structure):
    tid, ids, alternates = full_house(api, room, structure, waiting=1)
    response = api.post(
        f"/tournaments/{tid}/penalties",
        {"entry_id": ids["P4"], "kind": "disqualification", "reason": "Abuse", "chips": 40_000},
    )
    assert response.status_code in (200, 201), response.json()
    assert statuses(tid, [alternates["W0"]]) == ["active"]


def test_the_house_opens_a_broken_table_for_the_waiting_list(api, room, structure):
    """`alternates_new_table` 2: once two wait, a table the floor broke is used again."""
    tid = create(
        api,
        room,
        structure,
        house_rules="tda2024",
        table_numbers=[1, 2, 3],
        rules={"alternates_new_table": 2},
    )
    ids = start(api, tid, numbered_players(20))
    for name in ("P0", "P1", "P2"):
        bust(api, tid, ids[name])
    closed = TournamentTable.objects.filter(tournament_id=tid, status="closed")
    assert closed.count() == 1 and sorted(set(open_counts(tid))) != []
    broken = closed.get().number
    register(api, tid, ["L0"])  # the 18th seat
    first = register(api, tid, ["W0"])["W0"]
    assert Entry.objects.get(pk=first).status == "waiting"
    second = register(api, tid, ["W1"])["W1"]
    assert statuses(tid, [first, second]) == ["active", "active"]
    reopened = TournamentTable.objects.get(tournament_id=tid, number=broken)
    assert reopened.status == "open"
    # 23 entries in the field: the three out finished 21st to 23rd, each place once.
    out = Entry.objects.filter(tournament_id=tid, status="eliminated")
    assert sorted(out.values_list("place", flat=True)) == [21, 22, 23]
    assert AuditEntry.objects.filter(action="seating.table_for_waiting").count() == 1


# --- item 4: the floor during late registration ------------------------------------------------


def seats_of(tid: int, number: int) -> dict[int, int]:
    return dict(
        Entry.objects.filter(
            tournament_id=tid, status="active", tournament_table__number=number
        ).values_list("seat", "pk")
    )


def bust_evenly(api, tid: int, count: int) -> list[dict]:
    """Bust `count` players, one at a time, always from a largest table."""
    results = []
    for _ in range(count):
        tables = {n: seats_of(tid, n) for n in set(open_counts(tid))}
        largest = max(tables, key=lambda n: (len(tables[n]), -n))
        results.append(bust(api, tid, next(iter(tables[largest].values()))))
    return results


def test_the_house_holds_table_breaks_while_late_registration_is_open(api, room, structure):
    """docs/rules.md §5.10: 27 players on three tables, down to 17 (two tables would do): with
    `late_reg_hold` nobody moves until late registration closes; then the table breaks."""
    tid = create(
        api,
        room,
        structure,
        house_rules="tda2024",
        table_numbers=[1, 2, 3],
        late_registration_level=4,
        rules={"late_reg_hold": True},
    )
    start(api, tid, numbered_players(27))
    results = bust_evenly(api, tid, 10)
    assert all(r["actions"] == [] for r in results)
    assert TournamentTable.objects.filter(tournament_id=tid, status="open").count() == 3
    # Late registration closes (the clock is past level 4): the next bust-out breaks a table.
    assert api.post(f"/tournaments/{tid}/clock/jump", {"period_index": 4}).status_code == 200
    after = bust_evenly(api, tid, 1)[0]
    assert [a["kind"] for a in after["actions"]][:1] == ["break_table"]
    assert TournamentTable.objects.filter(tournament_id=tid, status="open").count() == 2


def test_without_the_hold_the_table_breaks_at_once(api, room, structure):
    tid = create(
        api,
        room,
        structure,
        house_rules="tda2024",
        table_numbers=[1, 2, 3],
        late_registration_level=4,
    )
    start(api, tid, numbered_players(27))
    results = bust_evenly(api, tid, 10)
    assert any(a["kind"] == "break_table" for r in results for a in r["actions"])


def test_a_table_opened_for_a_late_entry_draws_for_its_button(api, room, structure):
    """docs/rules.md §3.7: two full tables; a late entry opens table 3, balancing brings players
    to it, and the table draws for the button by high card: every later move from it names its
    mover (no 'who moved?')."""
    tid = create(api, room, structure, house_rules="tda2024", table_numbers=[1, 2, 3])
    start(api, tid, numbered_players(18))
    late = register(api, tid, ["Late"])["Late"]
    table = TournamentTable.objects.get(tournament_id=tid, number=3)
    assert Entry.objects.get(pk=late).tournament_table_id == table.pk
    assert table.status == "open" and table.players >= 2
    assert table.button_seat is not None and table.big_blind_seat is not None
    assert {d["seat"] for d in table.button_draw} == set(seats_of(tid, 3))
    assert table.button_seat in seats_of(tid, 3) and table.big_blind_seat in seats_of(tid, 3)
    assert AuditEntry.objects.filter(action="seating.button_draw").count() == 1
    listed = api.get(f"/tournaments/{tid}/tables").json()
    assert next(t for t in listed if t["number"] == 3)["button_seat"] == table.button_seat
    moves = api.get(f"/tournaments/{tid}/actions?status=pending").json()
    assert moves and all(m["entry_id"] is not None for m in moves)


def test_a_player_just_moved_counts_as_a_recent_mover_at_his_new_table(api, room, structure):
    from tables.floor.selectors import open_tables, recent_movers

    tid = create(api, room, structure, house_rules="tda2024", table_numbers=[1, 2, 3])
    start(api, tid, numbered_players(18))
    register(api, tid, ["Late"])
    moved = [m["entry_id"] for m in api.get(f"/tournaments/{tid}/actions?status=pending").json()]
    tables = open_tables(Tournament.objects.get(pk=tid))
    occupied = {t.pk: {s: e for s, e in seats_of(tid, t.number).items()} for t in tables}
    recent = recent_movers(Tournament.objects.get(pk=tid), tables, occupied)
    new_table = next(t for t in tables if t.number == 3)
    assert set(moved) <= recent[new_table.pk]


def test_undoing_a_bust_out_that_broke_a_table_keeps_the_big_blind_on_a_player(
    api, room, structure
):
    """Two players of table 3 bust in one hand, the next big blind among them; the field fits
    two tables and table 3 breaks. Undoing the other bust-out brings table 3 back: its big blind
    is recomputed onto a player (docs/rules.md §4.7)."""
    tid = create(api, room, structure, house_rules="tda2024", table_numbers=[1, 2, 3])
    start(api, tid, numbered_players(20))
    table = TournamentTable.objects.get(tournament_id=tid, number=3)
    seated = seats_of(tid, 3)
    big_blind_player = seated[table.big_blind_seat]
    other = next(e for s, e in seated.items() if s != table.big_blind_seat)
    result = bust(api, tid, big_blind_player, other)
    assert any(a["kind"] == "break_table" for a in result["actions"])
    undo = api.post(f"/tournaments/{tid}/eliminations/{other}/undo")
    assert undo.status_code == 200, undo.json()
    table.refresh_from_db()
    assert table.status == "open"
    occupied = seats_of(tid, 3)
    assert table.big_blind_seat in occupied
    assert table.button_seat != table.big_blind_seat
    listed = next(t for t in api.get(f"/tournaments/{tid}/tables").json() if t["number"] == 3)
    assert listed["button_seat"] == table.button_seat


def test_undoing_a_bust_out_whose_move_took_the_big_blind_keeps_it_on_a_player(
    api, room, structure
):
    """Table 1's next big blind has busted; another player busts there and the hand is
    reported: the mover from table 2 sits in the empty seat as the big blind. Undoing that
    bust-out (or a rebuy taking it back) takes the move back: the big blind goes to the next
    player, not the empty seat (docs/rules.md §4.7; the evening's table 1 after a rebuy)."""
    tid = create(api, room, structure, house_rules="tda2024", table_numbers=[1, 2])
    start(api, tid, numbered_players(18))  # 9 and 9
    table = TournamentTable.objects.get(tournament_id=tid, number=1)
    seated = seats_of(tid, 1)
    ring = [(table.big_blind_seat + i - 1) % table.seats + 1 for i in range(1, table.seats)]
    next_bb = next(s for s in ring if s in seated)
    assert bust(api, tid, seated[next_bb])["actions"] == []  # 9 and 8
    busted = seated[table.button_seat]
    result = bust(api, tid, busted)  # 9 and 7
    assert [a["kind"] for a in result["actions"]] == ["move"]
    mover = result["actions"][0]["entry_id"]
    assert api.post(f"/tournaments/{tid}/tables/1/hands", {}).status_code == 200
    table.refresh_from_db()
    assert seats_of(tid, 1)[table.big_blind_seat] == mover  # the mover is the big blind
    undo = api.post(f"/tournaments/{tid}/eliminations/{busted}/undo")
    assert undo.status_code == 200, undo.json()
    table.refresh_from_db()
    occupied = seats_of(tid, 1)
    assert mover not in occupied.values()
    assert table.big_blind_seat in occupied, (table.big_blind_seat, sorted(occupied))
    assert table.button_seat != table.big_blind_seat
