"""Color-ups through the API (docs/rules.md §8): the worked examples, the race in two steps, undo,
chips found later, the per-table status, and refusals that change nothing."""
# ruff: noqa: F811 (the `game` fixture is imported from tests/clocks/color_up_game.py)

import pytest

from clocks.models import ColorUp
from tests.clocks.color_up_game import (
    BREAK_100,
    BREAK_500,
    BREAK_1000,
    PLAIN_BREAK,
    game,  # noqa: F401 (a fixture)
    jump,
    seat_at,
)
from tests.conftest import numbered_players, seat_players
from tourney.models import AuditEntry, Tournament, TournamentEvent
from tourney.tournaments.usecases import tournament_create

pytestmark = pytest.mark.django_db


def color_up(api, tournament, **body):
    return api.post(f"/tournaments/{tournament.pk}/color-ups", {"table": 1, **body})


def chips_color_up(tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).chips_color_up


def state(tournament) -> tuple:
    """Everything a refused request must leave as it was."""
    return (
        chips_color_up(tournament),
        ColorUp.objects.count(),
        AuditEntry.objects.filter(action__startswith="color_up").count(),
        TournamentEvent.objects.filter(kind="color_up").count(),
    )


EXAMPLE_3_CARDS = {"1": ["Kh", "2c", "3d"], "4": ["Ks", "4c", "5d", "6h"], "7": ["9d", "8c"]}
EXAMPLE_3_CARDS["9"] = ["Ac"]


def race_seats(odd: dict[int, int], zero: set[int] = frozenset()) -> list[dict]:
    return [{"seat": s, "odd_chips": o, "zero_stack": s in zero} for s, o in odd.items()]


# --- the worked examples -----------------------------------------------------------------------


def test_example_1_round_up_to_500(api, game):
    jump(api, game, BREAK_100)
    stacks = {1: 1_100, 4: 12_300, 7: 12_500, 9: 200}
    response = color_up(
        api, game, method="round_up", seats=[{"seat": s, "stack": v} for s, v in stacks.items()]
    )
    assert response.status_code == 201, response.json()
    row = response.json()
    assert (row["status"], row["denomination"], row["removed"]) == ("done", 500, [100])
    after = {s["seat"]: (s["stack_after"], s["increase"]) for s in row["seats"]}
    assert after == {1: (1_500, 400), 4: (12_500, 200), 7: (12_500, 0), 9: (500, 300)}
    assert row["chips_change"] == 900 and chips_color_up(game) == 900


def test_example_2_round_up_when_500s_and_then_1000s_go(api, game):
    jump(api, game, BREAK_500)
    row = color_up(api, game, method="round_up", seats=[{"seat": 1, "stack": 7_500}]).json()
    assert (row["denomination"], row["seats"][0]["stack_after"]) == (1_000, 8_000)
    jump(api, game, BREAK_1000)
    row = color_up(api, game, method="round_up", seats=[{"seat": 4, "stack": 11_000}]).json()
    by_seat = {s["seat"]: s for s in row["seats"]}
    assert (row["denomination"], by_seat[4]["stack_after"]) == (5_000, 15_000)
    assert (by_seat[1]["stack_after"], by_seat[1]["increase"]) == (None, 0)  # not counted
    assert chips_color_up(game) == 500 + 4_000


def test_example_3_race_with_the_cards_dealt(api, game):
    jump(api, game, BREAK_100)
    response = color_up(
        api,
        game,
        method="race",
        seats=race_seats({1: 3, 4: 4, 7: 2, 9: 1}, zero={7}),
        cards=EXAMPLE_3_CARDS,
    )
    assert response.status_code == 201, response.json()
    row = response.json()
    assert (row["k"], row["unit"], row["total_odd"], row["race_chips"]) == (5, 100, 10, 2)
    assert row["winners"] == [9, 4]
    assert row["zero_stack_chips"] == [7] and row["extra_chips"] == 1
    awarded = {s["seat"]: s["chips_awarded"] for s in row["seats"]}
    assert awarded == {1: 0, 4: 1, 7: 1, 9: 1}
    assert {s["seat"]: s["best_card"] for s in row["seats"]} == {1: "Kh", 4: "Ks", 7: "9d", 9: "Ac"}
    # 1,000 in 100s left the table, three 500s came in.
    assert row["chips_change"] == 500 and chips_color_up(game) == 500
    assert row["cards_recorded"] is True
    status = api.get(f"/tournaments/{game.pk}/color-ups").json()
    assert status["active"] and status["all_done"] and status["tables"][0]["status"] == "done"


def test_example_4_rounding_of_the_race_chips(api, game):
    jump(api, game, BREAK_100)
    thirteen = race_seats({1: 4, 4: 4, 7: 4, 9: 1})
    preview = api.post(f"/tournaments/{game.pk}/color-ups/preview", {"table": 1, "seats": thirteen})
    assert preview.status_code == 200, preview.json()
    assert (preview.json()["total_odd"], preview.json()["race_chips"]) == (13, 3)  # half up
    game.rules_overrides = {"race_rounding": "down"}
    game.save(update_fields=["rules_overrides"])
    body = {"table": 1, "seats": thirteen}
    assert api.post(f"/tournaments/{game.pk}/color-ups/preview", body).json()["race_chips"] == 2
    game.rules_overrides = {}
    game.save(update_fields=["rules_overrides"])
    twelve = race_seats({1: 4, 4: 4, 7: 4})
    body = {"table": 1, "seats": twelve}
    assert api.post(f"/tournaments/{game.pk}/color-ups/preview", body).json()["race_chips"] == 2
    assert state(game) == (0, 0, 0, 0)  # previews save nothing


def test_example_5_chips_found_later_are_exchanged_at_equal_value(api, game):
    jump(api, game, BREAK_100)
    row = color_up(
        api, game, seats=race_seats({1: 3, 4: 4, 7: 2, 9: 1}, zero={7}), cards=EXAMPLE_3_CARDS
    ).json()
    found = api.post(
        f"/tournaments/{game.pk}/color-ups/{row['id']}/found", {"seat": 4, "value": 700}
    )
    assert found.status_code == 200, found.json()
    assert (found.json()["exchanged"], found.json()["removed_value"]) == (500, 200)
    assert found.json()["chips_change"] == 300 and chips_color_up(game) == 300
    assert found.json()["found"][0]["seat"] == 4


# --- the race in two steps, undo ---------------------------------------------------------------


def test_a_virtual_deal_is_shown_then_confirmed_and_undone(api, game):
    jump(api, game, BREAK_100)
    plan = api.post(
        f"/tournaments/{game.pk}/color-ups/preview",
        {"table": 1, "seats": race_seats({1: 3, 4: 4, 7: 2, 9: 1})},
    ).json()
    assert plan["decided"] is False and plan["deal_order"] == [1, 4, 7, 9]
    assert {s["seat"]: s["cards_needed"] for s in plan["seats"]} == {1: 3, 4: 4, 7: 2, 9: 1}

    dealt = color_up(api, game, seats=race_seats({1: 3, 4: 4, 7: 2, 9: 1}), confirm=False).json()
    assert dealt["status"] == "open" and dealt["cards_recorded"] is False
    cards = [c for s in dealt["seats"] for c in s["cards"]]
    assert len(cards) == 10 == len(set(cards))
    assert len(dealt["winners"]) == 2 and chips_color_up(game) == 0
    seed = AuditEntry.objects.get(action="color_up.run").after["seed"]
    assert isinstance(seed, int)
    again = color_up(api, game, seats=race_seats({1: 1}))
    assert again.status_code == 409 and again.json()["code"] == "color_up_open"
    status = api.get(f"/tournaments/{game.pk}/color-ups").json()
    assert status["tables"][0]["status"] == "dealt" and not status["all_done"]

    url = f"/tournaments/{game.pk}/color-ups/{dealt['id']}"
    confirmed = api.post(f"{url}/confirm").json()
    assert confirmed["status"] == "done" and confirmed["seats"] == dealt["seats"]
    assert chips_color_up(game) == confirmed["chips_change"] == 0  # 10 odd = 2 chips exactly
    assert api.post(f"{url}/confirm").json()["code"] == "color_up_not_open"
    done_again = color_up(api, game, seats=race_seats({1: 1}))
    assert done_again.status_code == 409 and done_again.json()["code"] == "already_colored_up"

    undone = api.post(f"{url}/undo")
    assert undone.status_code == 200 and undone.json()["status"] == "undone"
    assert api.post(f"{url}/undo").json()["code"] == "color_up_undone"
    redo = color_up(api, game, seats=race_seats({1: 3}, zero={1}))
    assert redo.status_code == 201, redo.json()
    # Three 100s, half up: one 500 for the only racer, who had nothing else.
    assert redo.json()["winners"] == [1] and redo.json()["extra_chips"] == 0
    assert chips_color_up(game) == 200
    assert ColorUp.objects.count() == 2  # the undone one stays


def test_undo_of_a_done_color_up_takes_its_chips_back(api, game):
    jump(api, game, BREAK_100)
    row = color_up(api, game, method="round_up", seats=[{"seat": 1, "stack": 1_100}]).json()
    assert chips_color_up(game) == 400
    api.post(f"/tournaments/{game.pk}/color-ups/{row['id']}/undo")
    assert chips_color_up(game) == 0
    events = TournamentEvent.objects.filter(kind="color_up").order_by("id")
    assert [e.payload["status"] for e in events] == ["done", "undone"]
    assert events.first().payload["all_done"] is True and events.last().payload["all_done"] is False


def test_several_chips_at_once_count_in_the_smallest(api, director, room, structure):
    """Rimóc break 2: 100s and 500s go together, D = 1,000, odd chips in 100s (k = 10);
    break 4: 1,000s go for 2,500s, counted in 500s (k = 5)."""
    tournament = tournament_create(
        actor=director,
        name="Rimóc",
        structure_id=structure.pk,
        starting_stack=40_000,
        buy_in=5_000,
        room_id=room.pk,
        house_rules="rimoc",
    )
    seat_at(api, tournament, {2: "Anna", 5: "Béla", 8: "Csaba"})
    api.post(f"/tournaments/{tournament.pk}/clock/start")
    jump(api, tournament, 9)
    cards = {
        "2": ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc"],
        "5": ["As", "2d", "3d", "4d", "5d", "6d"],
        "8": ["Kh", "7d", "8d"],
    }
    row = color_up(
        api, tournament, method="race", seats=race_seats({2: 9, 5: 6, 8: 3}), cards=cards
    ).json()
    assert (row["removed"], row["denomination"], row["unit"], row["k"]) == (
        [100, 500],
        1_000,
        100,
        10,
    )
    assert (row["total_odd"], row["race_chips"], row["winners"]) == (18, 2, [5, 8])
    assert row["chips_change"] == 2 * 1_000 - 1_800
    jump(api, tournament, 19)
    status = api.get(f"/tournaments/{tournament.pk}/color-ups").json()
    assert (status["removed"], status["denomination"], status["unit"], status["k"]) == (
        [1_000], 2_500, 500, 5,
    )  # fmt: skip


# --- refusals: a clear reason, nothing changed -------------------------------------------------


def test_refusals_change_nothing(api, api_as, game):
    before = state(game)
    outside = color_up(api, game, seats=race_seats({1: 1}))
    assert outside.status_code == 409 and outside.json()["code"] == "not_a_color_up_break"
    jump(api, game, PLAIN_BREAK)
    plain = color_up(api, game, seats=race_seats({1: 1}))
    assert plain.json()["code"] == "not_a_color_up_break"
    jump(api, game, BREAK_100)
    cases = [
        ({"seats": race_seats({1: 5})}, 422, "odd_chips_too_many"),
        ({"seats": race_seats({2: 1})}, 422, "seat_empty"),
        ({"seats": race_seats({11: 1})}, 422, "unknown_seat"),
        ({"seats": race_seats({1: 1}) * 2}, 422, "duplicate_seat"),
        ({"seats": race_seats({7: 0}, zero={7})}, 422, "no_chips"),
        ({"seats": race_seats({1: 3, 4: 4, 7: 2, 9: 1}), "cards": {"1": ["Kh", "2c", "3d"],
          "4": ["Kh", "4c", "5d", "6h"], "7": ["9d", "8c"], "9": ["Ac"]}}, 422, "duplicate_card"),
        ({"seats": race_seats({1: 3, 4: 4, 7: 2, 9: 1}), "cards": {"1": ["Kx", "2c", "3d"]}},
         422, "bad_card"),
        ({"seats": race_seats({1: 3, 4: 4, 7: 2, 9: 1}), "cards": {"1": ["Kh"]}}, 422,
         "card_count"),
        ({"seats": [{"seat": 1, "odd_chips": 5}], "method": "round_up"}, 422, "odd_chips_too_many"),
        ({"seats": race_seats({1: 1}), "table": 6}, 404, "table_not_found"),
    ]  # fmt: skip
    for body, status, code in cases:
        response = color_up(api, game, **body)
        assert (response.status_code, response.json()["code"]) == (status, code), body
    assert color_up(api, game, seats=[{"seat": 1, "odd_chips": -1}]).status_code == 422
    floor = api_as("floor")
    assert color_up(floor, game, seats=race_seats({1: 1}), override=True).status_code == 403
    assert color_up(api_as("desk"), game, seats=race_seats({1: 1})).status_code == 403
    assert api.post(f"/tournaments/{game.pk}/color-ups/999/undo").status_code == 404
    assert state(game) == before


def test_the_director_may_color_up_outside_the_break(api, game):
    jump(api, game, 2)  # level 2: after break 1
    late = color_up(
        api, game, seats=[{"seat": 1, "stack": 1_100}], method="round_up", override=True
    )
    assert late.status_code == 201, late.json()
    assert (late.json()["period_index"], late.json()["denomination"]) == (BREAK_100, 500)
    assert late.json()["break_number"] == 1
    status = api.get(f"/tournaments/{game.pk}/color-ups?period_index={BREAK_100}").json()
    assert status["tables"] == [
        {"table": 1, "status": "done", "color_up_id": late.json()["id"], "method": "round_up",
         "chips_change": 400}
    ]  # fmt: skip
    assert status["active"] is False and status["next"]["period_index"] == BREAK_500


def test_status_lists_every_table_in_play(api, director, room, structure):
    tournament = tournament_create(
        actor=director,
        name="Two tables",
        structure_id=structure.pk,
        starting_stack=40_000,
        buy_in=5_000,
        room_id=room.pk,
        house_rules="rimoc",
    )
    seat_players(api, tournament, numbered_players(14))
    api.post(f"/tournaments/{tournament.pk}/clock/start")
    status = api.get(f"/tournaments/{tournament.pk}/color-ups").json()
    assert status["active"] is False and status["next"]["removed"] == [100, 500]
    jump(api, tournament, 9)
    status = api.get(f"/tournaments/{tournament.pk}/color-ups").json()
    assert status["active"] and status["tables_total"] == 2 and status["tables_done"] == 0
    assert {t["status"] for t in status["tables"]} == {"open"}
    assert status["method"] == "race"


def test_the_api_token_of_a_display_role_reads_but_cannot_write(api_as, game):
    reader = api_as("display")
    assert reader.get(f"/tournaments/{game.pk}/color-ups").status_code == 200
    assert color_up(reader, game, seats=[]).status_code == 403


def test_a_dealer_link_colors_up_its_own_table_only(api, game):
    """Issue 15 part 2: table 1's dealer link runs table 1's color-up; another table's link
    is refused (403, nothing saved)."""
    from tables.dealer_links.selectors import dealer_token
    from tables.models import TournamentTable
    from tests.conftest import ApiClient

    jump(api, game, BREAK_100)
    other = TournamentTable.objects.filter(tournament=game).exclude(number=1).first()
    body = {"table": 1, "method": "round_up", "seats": [{"seat": 1, "stack": 1_100}]}
    assert other is not None
    stranger = ApiClient(dealer_token(game.pk, other.number, other.dealer_link_generation))
    refused = stranger.post(f"/tournaments/{game.pk}/color-ups", body)
    assert refused.status_code == 403
    assert refused.json()["code"] == "dealer_link_other_table"
    assert not ColorUp.objects.filter(tournament=game).exists()
    mine = ApiClient(dealer_token(game.pk, 1, 0))
    done = mine.post(f"/tournaments/{game.pk}/color-ups", body)
    assert done.status_code == 201, done.json()
    override = mine.post(f"/tournaments/{game.pk}/color-ups", {**body, "override": True})
    assert override.status_code == 403


def test_the_lobby_names_the_method_the_tables_used(api, game):
    """The house rule says chip race, the table rounded up: the TV's break screen said "Chip race"
    (evening production run); it names the method used, and "mixed" when tables differ."""
    from clocks.color_ups.selectors import color_up_display

    game.refresh_from_db()
    jump(api, game, BREAK_100)
    assert color_up_display(game)["method"] == "race"  # nothing done yet: the house rule
    color_up(api, game, method="round_up", seats=[{"seat": 1, "stack": 1_100}])
    assert color_up_display(game)["method"] == "round_up"
