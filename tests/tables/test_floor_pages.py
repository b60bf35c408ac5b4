"""The floor pages (tables/floor/views.py): the dealer's table page, the console's to-do list,
quick bust-out, hand-for-hand and clock-call panels, move slips, and the display's recent
moves. Pages render for each role; forms refuse bad input with a message and change nothing."""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from clocks.display.selectors import display_token
from infra.text.collation import sorted_by_name
from tables.models import ClockCall, FloorAction, TournamentTable
from tests.conftest import make_staff, numbered_players, seat_players
from tourney.models import Entry, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def client_as(role: str) -> Client:
    user = get_user_model().objects.filter(username=f"floor-page-{role}").first()
    client = Client()
    client.force_login(user or make_staff(f"floor-page-{role}", role))
    return client


def start(api, tournament, count: int) -> dict[str, int]:
    ids = seat_players(api, tournament, numbered_players(count))
    assert api.post(f"/tournaments/{tournament.pk}/clock/start").status_code == 200
    return ids


def seated_at(tournament, number: int) -> dict[int, int]:
    return dict(
        Entry.objects.filter(
            tournament=tournament, status="active", tournament_table__number=number
        ).values_list("seat", "pk")
    )


def counts(tournament) -> dict[int, int]:
    return {
        t.number: Entry.objects.filter(tournament_table=t, status="active").count()
        for t in TournamentTable.objects.filter(tournament=tournament, status="open")
    }


def bust(api, tournament, *entry_ids):
    rows = [{"entry_id": e} for e in entry_ids]
    response = api.post(f"/tournaments/{tournament.pk}/eliminations", {"eliminations": rows})
    assert response.status_code == 200, response.json()
    return response.json()


def balancing_move(api, tournament) -> dict:
    """16 players on two tables; three busts at one table call for one move."""
    start(api, tournament, 16)
    small = min(counts(tournament))
    victims = list(seated_at(tournament, small).values())
    bust(api, tournament, victims[0])
    bust(api, tournament, victims[1])
    return bust(api, tournament, victims[2])["actions"][0]


def url(name: str, tournament, *args) -> str:
    return reverse(f"tables:{name}", args=[tournament.pk, *args])


def toasts_of(response) -> list[dict]:
    return json.loads(response["HX-Trigger"])["floor:done"]["toasts"]


def page_messages(response) -> list[str]:
    return [str(m) for m in response.wsgi_request._messages._queued_messages]


# --- pages render for each role ------------------------------------------------------------


def test_dealer_page_shows_the_table_and_the_floor_controls_by_role(api, tournament):
    start(api, tournament, 6)
    page = url("dealer", tournament, 1)
    floor = client_as("floor").get(page)
    assert floor.status_code == 200
    html = floor.content.decode()
    for hook in ('id="hand-finished"', 'id="bustout-open"', 'id="clock-call-open"',
                 'id="bustout-form"', 'name="finish_hand"', 'id="clock-call-form"',
                 'data-floor-partial=', "js/floor.js"):  # fmt: skip
        assert hook in html, hook
    assert html.count('name="entry"') == len(seated_at(tournament, 1))
    display = client_as("display").get(page)
    assert display.status_code == 200
    assert 'id="bustout-open"' not in display.content.decode()
    assert Client().get(page).status_code == 302  # login first
    assert client_as("floor").get(url("dealer", tournament, 99)).status_code == 404


def test_console_shows_the_floor_panels_and_nothing_to_do_at_first(
    director_client, api, tournament
):
    start(api, tournament, 16)
    html = director_client.get(reverse("tourney:console", args=[tournament.pk])).content.decode()
    hooks = ['id="floor-todo"', 'id="floor-clock-calls"', 'id="quick-bustout-form"',
             'id="h4h-panel"', 'id="h4h-toggle"', 'id="floor-tables"', "js/floor.js"]  # fmt: skip
    for hook in hooks:
        assert hook in html, hook
    assert "floor-action" not in html  # the to-do list is empty: not shown
    floor_html = client_as("floor").get(reverse("tourney:console", args=[tournament.pk]))
    assert 'id="h4h-toggle"' not in floor_html.content.decode()  # the director's switch


def test_a_pending_move_is_on_the_console_and_on_both_dealer_pages(
    director_client, api, tournament
):
    move = balancing_move(api, tournament)
    todo = director_client.get(url("floor_todo", tournament)).content.decode()
    assert f'data-action="{move["id"]}"' in todo and 'data-kind="move"' in todo
    assert move["player_name"] in todo and "floor-undo" in todo and "floor-slip" in todo
    source = director_client.get(url("dealer", tournament, move["from_table"])).content.decode()
    target = director_client.get(url("dealer_live", tournament, move["to_table"])).content.decode()
    assert f'data-move="{move["id"]}"' in source and "is-outgoing" in source
    assert f'data-move="{move["id"]}"' in target and "is-incoming" in target
    assert move["player_name"] in target


SEAT_DIV = re.compile(r'<div class="seat seat-(\d+)([^"]*)" data-seat="\1"[^>]*>(.*?)</div>', re.S)


def test_the_seat_a_pending_mover_leaves_shows_him_leaving_not_empty(
    director_client, api, tournament
):
    """The chart puts the mover at his new seat at once, but he still sits in the old one
    until the floor confirms (docs/rules.md §3.4): the source's dealer page, the console's
    map and the seating chart show him there, leaving, not an empty seat; once confirmed,
    the seat is empty."""
    move = balancing_move(api, tournament)
    source = url("dealer_live", tournament, move["from_table"])
    pages = [source, url("floor_tables", tournament), url("seating_chart", tournament)]
    for page in pages:
        html = director_client.get(page).content.decode()
        leaving = [m for m in SEAT_DIV.finditer(html) if " leaving" in m.group(2)]
        assert [int(m.group(1)) for m in leaving] == [move["from_seat"]], page
        assert " empty" not in leaving[0].group(2)
        assert move["player_name"] in leaving[0].group(3)
        assert f"T{move['to_table']} S{move['to_seat']}" in leaving[0].group(3)
    done = url("floor_action_done", tournament)
    director_client.post(done, {"action": move["id"]}, headers=HTMX)
    html = director_client.get(source).content.decode()
    assert not [m for m in SEAT_DIV.finditer(html) if " leaving" in m.group(2)]


def test_an_unnamed_mover_gets_a_seat_picker_and_done_needs_a_name(
    director_client, api, tournament
):
    start(api, tournament, 16)
    tables = counts(tournament)
    small, large = min(tables), max(tables)
    TournamentTable.objects.filter(tournament=tournament, number=large).update(
        button_seat=None, small_blind_seat=None, big_blind_seat=None
    )
    victims = list(seated_at(tournament, small).values())
    for victim in victims[:2]:
        bust(api, tournament, victim)
    move = bust(api, tournament, victims[2])["actions"][0]
    assert move["entry_id"] is None
    dealer = director_client.get(url("dealer_live", tournament, large)).content.decode()
    assert "The player who is big blind next" in dealer and 'class="move-mover"' in dealer
    todo = director_client.get(url("floor_todo", tournament)).content.decode()
    assert f'id="floor-mover-{move["id"]}"' in todo
    done = url("floor_action_done", tournament)
    refused = director_client.post(done, {"action": move["id"], "entry": ""}, headers=HTMX)
    assert refused.status_code == 422 and toasts_of(refused)[0]["kind"] == "bad"
    named = next(iter(seated_at(tournament, large).values()))
    ok = director_client.post(done, {"action": move["id"], "entry": named}, headers=HTMX)
    assert ok.status_code == 204, toasts_of(ok)
    assert FloorAction.objects.get(pk=move["id"]).status == "done"


def test_partials_render(director_client, api, tournament):
    start(api, tournament, 16)
    for name in ("floor_todo", "floor_tables", "floor_h4h", "floor_clock_calls"):
        response = director_client.get(url(name, tournament))
        assert response.status_code == 200, name
    tables = director_client.get(url("floor_tables", tournament)).content.decode()
    assert tables.count('class="floor-table') == 2
    assert client_as("display").get(url("floor_todo", tournament)).status_code == 200
    assert client_as("display").get(url("floor_bustout_search", tournament)).status_code == 403


def test_a_table_that_must_hold_is_marked_on_the_map_the_list_and_its_dealer_page(
    director_client, api, tournament
):
    """Rimóc holds a table 3 short of the largest once its blinds are hit (docs/rules.md §5.7)."""
    start(api, tournament, 16)
    small = min(counts(tournament))
    table = TournamentTable.objects.get(tournament=tournament, number=small)
    seats = seated_at(tournament, small)
    after_bb = table.big_blind_seat % table.seats + 1  # the next big blind's seat, emptied
    victims = [seats.pop(after_bb)] if after_bb in seats else []
    victims += list(seats.values())[: 3 - len(victims)]
    for victim in victims:
        bust(api, tournament, victim)
    # The planned move is not walked yet: the short table really is short and holds.
    context = director_client.get(url("floor_tables", tournament)).context
    halted = {t["number"] for t in context["tables"] if t["halted"]}
    assert halted == {small}
    number = next(iter(halted))
    assert "is-halted" in director_client.get(url("floor_tables", tournament)).content.decode()
    assert (
        f'data-halted="{number}"'
        in director_client.get(url("floor_todo", tournament)).content.decode()
    )
    dealer = director_client.get(url("dealer_live", tournament, number)).content.decode()
    assert 'data-hold="halted"' in dealer


def test_a_broken_tables_dealer_page_says_it_is_closed_and_lists_its_players_moves(
    director_client, api, tournament
):
    start(api, tournament, 19)  # Rimóc: [7, 6, 6]; at 18 one table breaks
    seven = next(n for n, c in counts(tournament).items() if c == 7)
    broken = bust(api, tournament, next(iter(seated_at(tournament, seven).values())))
    action = broken["actions"][0]
    assert action["kind"] == "break_table"
    html = director_client.get(url("dealer", tournament, action["from_table"])).content.decode()
    assert 'data-hold="closed"' in html and 'id="hand-finished"' not in html
    assert html.count("is-outgoing") == len(action["moves"])
    todo = director_client.get(url("floor_todo", tournament)).content.decode()
    assert 'data-kind="break_table"' in todo
    assert todo.count("floor-move-done") == len(action["moves"])
    slips = director_client.get(url("move_slip", tournament, action["id"])).content.decode()
    assert slips.count('class="move-slip"') == len(action["moves"])
    one = action["moves"][0]
    single = director_client.get(url("move_slip", tournament, one["id"])).content.decode()
    assert single.count('class="move-slip"') == 1 and one["player_name"] in single


def test_a_broken_tables_mover_who_busts_before_moving_is_no_longer_a_move_to_do(
    director_client, api, tournament
):
    """The evening's play: table 1 broke (7 moves), one of its players busted before he had
    moved; the console still listed his move with Done (refused: "no longer open") and the
    main button read "The other 6 done" while nothing was done; his slip still printed."""
    start(api, tournament, 19)
    seven = next(n for n, c in counts(tournament).items() if c == 7)
    action = bust(api, tournament, next(iter(seated_at(tournament, seven).values())))["actions"][0]
    gone = action["moves"][0]
    bust(api, tournament, gone["entry_id"])
    assert FloorAction.objects.get(pk=gone["id"]).status == FloorAction.Status.SUPERSEDED
    todo = director_client.get(url("floor_todo", tournament)).content.decode()
    row = re.search(rf'<tr data-move="{gone["id"]}"[^>]*>.*?</tr>', todo, re.S).group(0)
    assert "floor-move-done" not in row and "Replaced" in row and "is-void" in row
    assert todo.count("floor-move-done") == len(action["moves"]) - 1
    assert "All done" in todo and "other" not in todo
    slips = director_client.get(url("move_slip", tournament, action["id"])).content.decode()
    assert slips.count('class="move-slip"') == len(action["moves"]) - 1
    # the whole name element: "P1" is also the start of "P11"
    assert f"<small>Player</small>{gone['player_name']}</div>" not in slips


# --- quick bust-out and the dealer's bust-out ------------------------------------------------


def test_bustout_shows_the_place_with_undo_and_refuses_bad_input(director_client, api, tournament):
    ids = start(api, tournament, 8)
    post = url("floor_bustout", tournament)
    console = reverse("tourney:console", args=[tournament.pk])
    nobody = director_client.post(post, {"entry": []})
    assert nobody.status_code == 302 and nobody["Location"] == console
    assert page_messages(nobody) == ["Choose at least one player who busted."]
    bad_stack = director_client.post(post, {"entry": [ids["P0"]], f"stack_{ids['P0']}": "lots"})
    assert "whole number of chips" in page_messages(bad_stack)[0]
    mixed = director_client.post(
        post, {"entry": [ids["P0"], ids["P1"]], f"stack_{ids['P0']}": "12 000"}, headers=HTMX
    )
    assert mixed.status_code == 422 and "Give the stack" in toasts_of(mixed)[0]["message"]
    assert Entry.objects.filter(tournament=tournament, status="active").count() == 8

    ok = director_client.post(
        post,
        {"entry": [ids["P0"], ids["P1"]], f"stack_{ids['P0']}": "12,000",
         f"stack_{ids['P1']}": "8 000"},
        headers=HTMX,
    )  # fmt: skip
    assert ok.status_code == 204
    toasts = toasts_of(ok)
    assert [t["message"] for t in toasts[:2]] == ["P0 is out in place 7", "P1 is out in place 8"]
    undo = reverse("api:undo_elimination", args=[tournament.pk, ids["P0"]])
    assert toasts[0]["undoUrl"] == undo
    assert director_client.post(undo).status_code == 200  # the toast's Undo works
    assert Entry.objects.get(pk=ids["P0"]).status == "active"
    again = director_client.post(post, {"entry": [ids["P1"]]})
    assert "already" in page_messages(again)[0].lower()


def test_bustout_and_hand_finished_reports_the_hand_after_the_bust(api, tournament):
    ids = start(api, tournament, 6)
    floor = client_as("floor")
    entry = Entry.objects.get(pk=ids["P0"])
    number = entry.tournament_table.number
    table = TournamentTable.objects.get(tournament=tournament, number=number)
    response = floor.post(
        url("floor_bustout", tournament),
        {"entry": [entry.pk], "finish_hand": "1", "table": number,
         "next": url("dealer", tournament, number)},
    )  # fmt: skip
    assert response["Location"] == url("dealer", tournament, number)
    assert Entry.objects.get(pk=entry.pk).status == "eliminated"
    table.refresh_from_db()
    assert table.hands_played == 1
    assert any("Hand recorded" in m for m in page_messages(response))
    refused = floor.post(
        url("floor_bustout", tournament), {"entry": [ids["P1"]], "finish_hand": "1"}
    )
    assert "which table" in page_messages(refused)[0]
    assert (
        client_as("desk").post(url("floor_bustout", tournament), {"entry": [ids["P1"]]}).status_code
        == 403
    )


def test_bustout_search_finds_seated_players_by_name_or_table_and_seat(
    director_client, api, tournament
):
    ids = start(api, tournament, 12)
    entry = Entry.objects.select_related("tournament_table").get(pk=ids["P7"])
    search = url("floor_bustout_search", tournament)
    by_name = director_client.get(search, {"q": "p7"}).content.decode()
    assert f'data-pick-entry="{entry.pk}"' in by_name
    where = f"T{entry.tournament_table.number} S{entry.seat}"
    by_seat = director_client.get(search, {"q": where}).content.decode()
    assert by_seat.count("data-pick-entry") == 1 and f'data-pick-entry="{entry.pk}"' in by_seat
    by_table = director_client.get(
        search, {"q": str(entry.tournament_table.number)}
    ).content.decode()
    assert by_table.count("data-pick-entry") == len(
        seated_at(tournament, entry.tournament_table.number)
    )
    assert "Nobody seated matches" in director_client.get(search, {"q": "zzz"}).content.decode()


def test_bustout_search_lists_names_in_the_languages_collation(director_client, api, tournament):
    """Mészáros before Molnár in Hungarian (code points put "é" after "o"); "Čapek" after
    "Cizek" and "Chalupa" after "Hrubý" in Czech (issue 13)."""
    names = ["Molnár Dávid", "Mészáros Enikő", "Máté Ödön", "Hrubý Jan", "Chalupa Jan",
             "Čapek Karel", "Cizek Václav", "Ábel Márk", "Szabó Áron"]  # fmt: skip
    seat_players(api, tournament, names)
    assert api.post(f"/tournaments/{tournament.pk}/clock/start").status_code == 200
    search = url("floor_bustout_search", tournament)

    def found(query: str, language: str) -> list[str]:
        director_client.cookies["django_language"] = language
        html = director_client.get(search, {"q": query}, headers=HTMX).content.decode()
        return [n for _at, n in sorted((html.index(n), n) for n in names if n in html)]

    hu = found("m", "hu")
    assert hu == sorted_by_name([n for n in names if "m" in n.lower()], language="hu")
    assert hu.index("Mészáros Enikő") < hu.index("Molnár Dávid")
    cs = found("a", "cs")
    assert cs == sorted_by_name([n for n in names if "a" in n.lower()], language="cs")
    assert cs.index("Cizek Václav") < cs.index("Čapek Karel") < cs.index("Hrubý Jan")
    assert cs.index("Hrubý Jan") < cs.index("Chalupa Jan")


# --- actions: done, undo ---------------------------------------------------------------------


def test_done_and_undo_from_the_console(director_client, api, tournament):
    move = balancing_move(api, tournament)
    done = url("floor_action_done", tournament)
    undo = url("floor_action_undo", tournament)
    assert (
        "Choose a floor action"
        in toasts_of(director_client.post(done, {"action": "x"}, headers=HTMX))[0]["message"]
    )
    reverted = director_client.post(undo, {"action": move["id"]}, headers=HTMX)
    assert reverted.status_code == 204
    assert FloorAction.objects.get(pk=move["id"]).status == "undone"
    twice = director_client.post(undo, {"action": move["id"]})
    assert "undone already" in page_messages(twice)[0]


def test_done_marks_a_move_done(api, tournament):
    move = balancing_move(api, tournament)
    response = client_as("floor").post(
        url("floor_action_done", tournament), {"action": move["id"]}, headers=HTMX
    )
    assert response.status_code == 204
    assert "Move done" in toasts_of(response)[0]["message"]
    assert FloorAction.objects.get(pk=move["id"]).status == "done"
    assert (
        client_as("display")
        .post(url("floor_action_done", tournament), {"action": move["id"]})
        .status_code
        == 403
    )


# --- hand-for-hand and clock calls -----------------------------------------------------------


def test_hand_for_hand_is_the_directors_switch_and_the_panel_shows_the_tables(
    director_client, api, tournament
):
    start(api, tournament, 16)
    toggle = url("floor_h4h_set", tournament)
    assert client_as("floor").post(toggle, {"active": "1"}).status_code == 403
    bad = director_client.post(toggle, {"active": "maybe"}, headers=HTMX)
    assert bad.status_code == 422
    assert director_client.post(toggle, {"active": "1"}, headers=HTMX).status_code == 204
    tournament.refresh_from_db()
    assert tournament.hand_for_hand
    numbers = sorted(counts(tournament))
    api.post(f"/tournaments/{tournament.pk}/tables/{numbers[0]}/hands")
    panel = director_client.get(url("floor_h4h", tournament)).content.decode()
    assert f'data-table="{numbers[0]}" data-state="done"' in panel
    assert f'data-table="{numbers[1]}" data-state="playing"' in panel
    waiting = director_client.get(url("dealer_live", tournament, numbers[0])).content.decode()
    assert 'data-hold="hand_for_hand"' in waiting
    assert 'id="hand-finished" disabled' in waiting
    twice = director_client.post(toggle, {"active": "1"})
    assert "already on" in page_messages(twice)[0]


def test_calling_the_clock_from_the_dealer_page(api, tournament):
    start(api, tournament, 6)
    floor = client_as("floor")
    start_url = url("floor_clock_call_start", tournament)
    seat = min(seated_at(tournament, 1))
    missing = floor.post(start_url, {"table": 1}, headers=HTMX)
    assert missing.status_code == 422
    empty_seat = next(s for s in range(1, 11) if s not in seated_at(tournament, 1))
    refused = floor.post(start_url, {"table": 1, "seat": empty_seat}, headers=HTMX)
    assert refused.status_code == 422 and "Nobody plays" in toasts_of(refused)[0]["message"]
    ok = floor.post(start_url, {"table": 1, "seat": seat}, headers=HTMX)
    assert ok.status_code == 204 and toasts_of(ok)[0]["kind"] == "warn"
    call = ClockCall.objects.get(tournament=tournament)
    panel = floor.get(url("floor_clock_calls", tournament), {"table": 1}).content.decode()
    assert (
        f'data-clock-call="{call.pk}"' in panel and f'data-ends-at-ms="{call.ends_at_ms}"' in panel
    )
    assert "At zero" in panel and 'data-outcome="expired" disabled' in panel
    assert (
        floor.get(url("floor_clock_calls", tournament), {"table": 2}).content.decode().strip() == ""
    )
    dealer = floor.get(url("dealer", tournament, 1)).content.decode()
    assert f'data-clock-call="{call.pk}"' in dealer
    end = url("floor_clock_call_end", tournament)
    early = floor.post(end, {"call": call.pk, "outcome": "expired"}, headers=HTMX)
    assert early.status_code == 422  # there is still time left
    assert (
        floor.post(end, {"call": call.pk, "outcome": "sideways"}, headers=HTMX).status_code == 422
    )
    acted = floor.post(end, {"call": call.pk, "outcome": "acted"}, headers=HTMX)
    assert acted.status_code == 204
    call.refresh_from_db()
    assert call.outcome == "acted"


BAD_FLOOR_FORMS = [  # each gave a 500 ("²" is a digit to str.isdigit, not to int) or passed
    ("floor_bustout", {"entry": "²"}, "from the list"),
    ("floor_bustout", {"entry": "{e}", "stack_{e}": "²"}, "whole number of chips"),
    ("floor_bustout", {"entry": "{e}", "table": "two"}, "which table"),  # was ignored
    ("floor_action_done", {"action": "²"}, "Choose a floor action"),
    ("floor_action_done", {"action": "1", "entry": "99999999999999999999"}, "from the list"),
    ("floor_action_undo", {"action": "99999999999999999999"}, "Choose a floor action"),
    ("floor_clock_call_start", {"table": "1", "seat": "²"}, "Choose the seat"),
    ("floor_clock_call_start", {"table": "²", "seat": "1"}, "Choose the seat"),
    ("floor_clock_call_end", {"call": "²", "outcome": "acted"}, "how the clock call ended"),
]


@pytest.mark.parametrize(("name", "data", "message"), BAD_FLOOR_FORMS)
def test_the_floor_forms_refuse_bad_input_and_change_nothing(
    director_client, api, tournament, name, data, message
):
    ids = start(api, tournament, 6)
    data = {
        k.replace("{e}", str(ids["P0"])): v.replace("{e}", str(ids["P0"])) for k, v in data.items()
    }
    response = director_client.post(url(name, tournament), data, headers=HTMX)
    assert response.status_code == 422
    toast = toasts_of(response)[0]
    assert toast["kind"] == "bad" and message in toast["message"]
    assert Entry.objects.filter(tournament=tournament, status="active").count() == 6
    assert not ClockCall.objects.filter(tournament=tournament).exists()


def test_the_floor_panels_read_a_table_that_is_no_number_as_none(director_client, api, tournament):
    """ "²" is a digit to str.isdigit but no number to int: it gave a 500 on the clock calls
    panel, the bust-out search, the penalty form and history; a number past 2**63 - 1 is no
    table or id either (now read as none before the database)."""
    start(api, tournament, 6)
    for bad in ("²", "99999999999999999999"):
        calls = director_client.get(url("floor_clock_calls", tournament), {"table": bad})
        assert calls.status_code == 200
        search = director_client.get(url("floor_bustout_search", tournament), {"q": bad})
        assert search.status_code == 200 and "data-pick-entry" not in search.content.decode()
        form = reverse("penalties:form", args=[tournament.pk])
        assert director_client.get(form, {"table": bad}).status_code == 200
        history = reverse("penalties:history", args=[tournament.pk])
        assert director_client.get(history, {"entry": bad}).status_code == 404


# --- move slips and the lobby display --------------------------------------------------------


def test_move_slip_prints_the_move(director_client, api, tournament):
    move = balancing_move(api, tournament)
    page = director_client.get(url("move_slip", tournament, move["id"]), {"paper": "80mm"})
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="move-slip"') == 1
    assert move["player_name"] in html and tournament.name in html
    assert client_as("display").get(url("move_slip", tournament, move["id"])).status_code == 403
    assert director_client.get(url("move_slip", tournament, 999_999)).status_code == 404


def test_the_display_lists_floor_moves_with_where_the_player_came_from(api, tournament):
    move = balancing_move(api, tournament)
    state = (
        Client().get(reverse("clocks:display_state", args=[display_token(tournament.pk)])).json()
    )
    row = state["recent_moves"][0]
    assert (row["player_name"], row["from_table"], row["from_seat"]) == (
        move["player_name"], move["from_table"], move["from_seat"],
    )  # fmt: skip
    assert (row["table"], row["seat"]) == (move["to_table"], move["to_seat"])
    api.post(f"/tournaments/{tournament.pk}/actions/{move['id']}/undo")
    state = (
        Client().get(reverse("clocks:display_state", args=[display_token(tournament.pk)])).json()
    )
    assert all(r.get("from_table") is None for r in state["recent_moves"])


def test_tournament_not_running_refuses_bustouts_with_a_message(director_client, tournament):
    assert tournament.status != Tournament.Status.RUNNING
    response = director_client.post(url("floor_bustout", tournament), {"entry": [1]})
    assert page_messages(response)
