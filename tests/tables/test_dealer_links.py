"""Issue 15 part 2: dealer links. A signed link per table (`GET .../tables/{n}/dealer-link`,
director and floor) whose token, sent as the bearer, does that table's dealer actions only:
hand finished, bust-outs of players seated there, moves into or out of it, clock calls there,
its color-up. Anything else, another table and a revoked link are refused with 403
`{code, detail}` and nothing changes. The audit names the dealer link of table N.

Runs on SQLite and, with DATABASE_URL, on PostgreSQL (the same tests).
"""

import pytest

from clocks.clock.usecases import clock_operate
from tables.dealer_links.selectors import dealer_token
from tables.models import FloorAction, TournamentTable
from tests.conftest import ApiClient, numbered_players, seat_players
from tourney.models import AuditEntry, Elimination, Entry, TournamentEvent

pytestmark = pytest.mark.django_db


def token_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


@pytest.fixture
def running(api, director, tournament):
    """19 players on three tables (Rimóc: 10/18/27), the clock running."""
    seat_players(api, tournament, numbered_players(19))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    return tournament


def tables_in_play(tournament) -> list[int]:
    return sorted(
        TournamentTable.objects.filter(
            tournament=tournament, status=TournamentTable.Status.OPEN
        ).values_list("number", flat=True)
    )


def seated_at(tournament, number: int) -> list[Entry]:
    return list(
        Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ACTIVE, tournament_table__number=number
        ).order_by("seat")
    )


def dealer(api, tournament, number: int) -> ApiClient:
    url = api.get(f"/tournaments/{tournament.pk}/tables/{number}/dealer-link").json()["url"]
    return ApiClient(token_of(url))


def snapshot(tournament) -> tuple:
    """What a refused request must leave alone."""
    return (
        TournamentEvent.objects.filter(tournament=tournament).count(),
        AuditEntry.objects.count(),
        Elimination.objects.count(),
        list(TournamentTable.objects.order_by("pk").values_list("button_seat", "hands_played")),
        list(FloorAction.objects.order_by("pk").values_list("status", flat=True)),
    )


def assert_refused(response, code: str) -> None:
    assert response.status_code == 403, response.content
    body = response.json()
    assert set(body) == {"code", "detail"} and body["code"] == code and body["detail"]


def test_director_and_floor_get_the_link_others_are_refused(api, api_as, running, client):
    number = tables_in_play(running)[0]
    path = f"/tournaments/{running.pk}/tables/{number}/dealer-link"
    body = api.get(path).json()
    assert list(body) == ["url"] and body["url"].startswith("http://testserver/dealer/")
    assert api_as("floor").get(path).json() == body
    for role in ("desk", "display"):
        assert_refused(api_as(role).get(path), "forbidden")
    assert api.get(f"/tournaments/{running.pk}/tables/99/dealer-link").status_code == 404
    page = client.get(body["url"].removeprefix("http://testserver"))
    assert page.status_code == 200 and b"dealer-config" in page.content


def test_a_dealer_link_busts_at_its_own_table_audited_as_the_link(api, running):
    number = tables_in_play(running)[0]
    victim = seated_at(running, number)[0]
    response = dealer(api, running, number).post(
        f"/tournaments/{running.pk}/eliminations",
        {"eliminations": [{"entry_id": victim.pk}]},
    )
    assert response.status_code == 200, response.content
    victim.refresh_from_db()
    assert victim.status == Entry.Status.ELIMINATED
    audit = AuditEntry.objects.filter(tournament=running).order_by("-id")
    names = set(audit.values_list("actor_name", flat=True)[:5])
    assert f"dealer link of table {number}" in names
    assert audit.filter(actor_name=f"dealer link of table {number}").first().actor_id is None


def test_a_dealer_link_reports_its_hand_and_calls_its_clock(api, running):
    number = tables_in_play(running)[0]
    link = dealer(api, running, number)
    hand = link.post(f"/tournaments/{running.pk}/tables/{number}/hands", {})
    assert hand.status_code == 200, hand.content
    seat = seated_at(running, number)[0].seat
    call = link.post(f"/tournaments/{running.pk}/tables/{number}/clock-calls", {"seat": seat})
    assert call.status_code == 201, call.content
    ended = link.post(
        f"/tournaments/{running.pk}/clock-calls/{call.json()['id']}/end", {"outcome": "acted"}
    )
    assert ended.status_code == 200, ended.content


def test_refused_at_another_table_and_nothing_changes(api, running):
    mine, other = tables_in_play(running)[:2]
    link = dealer(api, running, mine)
    stranger = seated_at(running, other)[0]
    before = snapshot(running)
    assert_refused(
        link.post(
            f"/tournaments/{running.pk}/eliminations",
            {"eliminations": [{"entry_id": stranger.pk}]},
        ),
        "dealer_link_other_table",
    )
    # one of his own and one of another table's players: refused whole
    assert_refused(
        link.post(
            f"/tournaments/{running.pk}/eliminations",
            {
                "eliminations": [
                    {"entry_id": seated_at(running, mine)[0].pk},
                    {"entry_id": stranger.pk},
                ]
            },
        ),
        "dealer_link_other_table",
    )
    assert_refused(
        link.post(f"/tournaments/{running.pk}/tables/{other}/hands", {}),
        "dealer_link_other_table",
    )
    assert_refused(
        link.post(f"/tournaments/{running.pk}/tables/{other}/clock-calls", {"seat": stranger.seat}),
        "dealer_link_other_table",
    )
    assert snapshot(running) == before
    stranger.refresh_from_db()
    assert stranger.status == Entry.Status.ACTIVE


def test_refused_outside_the_dealers_actions(api, running, tournament):
    number = tables_in_play(running)[0]
    link = dealer(api, running, number)
    before = snapshot(running)
    for method, path, body in (
        ("post", f"/tournaments/{running.pk}/clock/pause", {}),
        (
            "post",
            f"/tournaments/{running.pk}/penalties",
            {"entry_id": 1, "kind": "warning", "reason": "x"},
        ),
        ("put", f"/tournaments/{running.pk}/hand-for-hand", {"active": True}),
        ("get", f"/tournaments/{running.pk}/tables/{number}/dealer-link", None),
        ("post", "/players", {"name": "Intruder"}),
    ):
        response = getattr(link, method)(path, body) if body is not None else link.get(path)
        assert response.status_code == 403, (path, response.content)
        assert set(response.json()) == {"code", "detail"}
    assert snapshot(running) == before


def test_refused_after_revocation_at_once(api, api_as, running, client):
    number = tables_in_play(running)[0]
    old = dealer(api, running, number)
    old_url = api.get(f"/tournaments/{running.pk}/tables/{number}/dealer-link").json()["url"]
    assert_refused(
        api_as("desk").post(f"/tournaments/{running.pk}/tables/{number}/dealer-link/revoke"),
        "forbidden",
    )
    revoked = api_as("floor").post(f"/tournaments/{running.pk}/tables/{number}/dealer-link/revoke")
    assert revoked.status_code == 200
    assert revoked.json()["url"] != old_url
    assert AuditEntry.objects.filter(action="table.dealer_link_revoke").count() == 1
    before = snapshot(running)
    victim = seated_at(running, number)[0]
    assert_refused(
        old.post(
            f"/tournaments/{running.pk}/eliminations", {"eliminations": [{"entry_id": victim.pk}]}
        ),
        "dealer_link_revoked",
    )
    assert_refused(
        old.post(f"/tournaments/{running.pk}/tables/{number}/hands", {}), "dealer_link_revoked"
    )
    assert snapshot(running) == before
    old_token = token_of(old_url)
    assert client.get(f"/dealer/{old_token}/").status_code == 403
    assert client.get(f"/dealer/{old_token}/state.json").json()["code"] == "dealer_link_revoked"
    stream = client.get(f"/api/v1/tournaments/{running.pk}/events?dealer={old_token}")
    assert stream.status_code == 403
    # the new link works
    new = ApiClient(token_of(revoked.json()["url"]))
    assert new.post(f"/tournaments/{running.pk}/tables/{number}/hands", {}).status_code == 200


def test_a_move_is_confirmed_by_either_tables_dealer_only(api, director, running):
    from tourney.eliminations.usecases import eliminations_record

    move = None
    for _round in range(6):
        move = FloorAction.objects.filter(
            tournament=running, kind=FloorAction.Kind.MOVE, status=FloorAction.Status.PENDING
        ).first()
        if move is not None:
            break
        counts = {n: seated_at(running, n) for n in tables_in_play(running)}
        smallest = min(counts, key=lambda n: len(counts[n]))
        eliminations_record(
            actor=director, tournament_id=running.pk, eliminations=[(counts[smallest][0].pk, None)]
        )
    assert move is not None
    third = next(n for n in tables_in_play(running) if n not in (move.from_table, move.to_table))
    before = snapshot(running)
    assert_refused(
        dealer(api, running, third).post(f"/tournaments/{running.pk}/actions/{move.pk}/done", {}),
        "dealer_link_other_table",
    )
    assert snapshot(running) == before
    done = dealer(api, running, move.to_table).post(
        f"/tournaments/{running.pk}/actions/{move.pk}/done", {}
    )
    assert done.status_code == 200, done.content
    move.refresh_from_db()
    assert move.status == FloorAction.Status.DONE


def test_forged_and_foreign_tokens(api, running, tournament):
    number = tables_in_play(running)[0]
    forged = dealer_token(running.pk, number, 0)[:-3] + "abc"
    response = ApiClient(forged).post(f"/tournaments/{running.pk}/tables/{number}/hands", {})
    assert response.status_code == 401
    # a link of this tournament used on another tournament's table
    link = dealer(api, running, number)
    assert_refused(
        link.post(f"/tournaments/{running.pk + 1}/tables/{number}/hands", {}),
        "dealer_link_other_table",
    )


def test_the_console_prints_the_cards_and_revokes_one(running, director_client, api_as, client):
    from django.urls import reverse

    from tests.conftest import make_staff

    number = tables_in_play(running)[0]
    console = director_client.get(reverse("tourney:console", args=[running.pk])).content.decode()
    assert reverse("dealer_links:cards", args=[running.pk]) in console
    page = director_client.get(reverse("dealer_links:cards", args=[running.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    assert text.count('class="move-slip dealer-card"') == len(tables_in_play(running))
    assert "<svg" in text
    old = dealer_token(running.pk, number, 0)
    assert f"/dealer/{old}/" in text
    desk = make_staff("desk-cards", "desk")
    client.force_login(desk)
    assert client.get(reverse("dealer_links:cards", args=[running.pk])).status_code == 403
    director_client.post(reverse("dealer_links:revoke", args=[running.pk, number]))
    assert director_client.get(f"/dealer/{old}/").status_code == 403
    again = director_client.get(reverse("dealer_links:cards", args=[running.pk])).content.decode()
    assert f"/dealer/{dealer_token(running.pk, number, 1)}/" in again


def test_the_players_table_is_checked_again_under_the_tournaments_lock(running):
    """A move confirmed between the API's first check and the bust-out's lock: the check made
    again under the lock refuses, and nothing changes."""
    import functools

    from tables.dealer_links.selectors import DealerLinkActor, require_busts_at
    from tourney.core.errors import PermissionDenied
    from tourney.eliminations.usecases import eliminations_record

    mine, other = tables_in_play(running)[:2]
    player = seated_at(running, mine)[0]
    link = DealerLinkActor(tournament_id=running.pk, table=mine)
    require_busts_at(link, running.pk, [player.pk])  # passes before the move
    taken = {e.seat for e in seated_at(running, other)}
    free = next(s for s in range(1, 11) if s not in taken)
    Entry.objects.filter(pk=player.pk).update(
        tournament_table=TournamentTable.objects.get(tournament=running, number=other), seat=free
    )
    before = snapshot(running)
    with pytest.raises(PermissionDenied):
        eliminations_record(
            actor=link,
            tournament_id=running.pk,
            eliminations=[(player.pk, None)],
            authorize=functools.partial(require_busts_at, link, running.pk, [player.pk]),
        )
    assert snapshot(running) == before
    assert Entry.objects.get(pk=player.pk).status == Entry.Status.ACTIVE


def test_a_double_tap_on_bust_out_says_already_out_not_another_table(api, running):
    """The evening (production run): the dealer's second tap on Bust-out answered "This dealer
    link is for table 1 only." about the player just busted at table 1."""
    number = tables_in_play(running)[0]
    victim = seated_at(running, number)[0]
    link = dealer(api, running, number)
    body = {"eliminations": [{"entry_id": victim.pk}]}
    assert link.post(f"/tournaments/{running.pk}/eliminations", body).status_code == 200
    before = snapshot(running)
    again = link.post(f"/tournaments/{running.pk}/eliminations", body)
    assert again.status_code == 409, again.content
    assert again.json()["code"] == "already_eliminated"
    assert snapshot(running) == before


def test_the_dealer_links_page_marks_a_seat_sitting_out_a_penalty(api, running, client):
    """The evening (production run): a player given a round's penalty from the console showed
    as a normal seat on his table's dealer link, so the dealer dealt him in (docs/rules.md §10:
    the dealer kills a penalised seat's hand); the logged-in dealer page marks it."""
    number = tables_in_play(running)[0]
    offender = seated_at(running, number)[1]
    given = api.post(
        f"/tournaments/{running.pk}/penalties",
        {"entry_id": offender.pk, "kind": "missed_hands", "rounds": 1, "reason": "Trágár beszéd"},
    )
    assert given.status_code == 201, given.content
    api.post(f"/tournaments/{running.pk}/tables/{number}/hands", {})  # the hand in play ends
    link = api.get(f"/tournaments/{running.pk}/tables/{number}/dealer-link").json()["url"]
    state = client.get(f"/dealer/{token_of(link)}/state.json").json()
    seats = {s["seat"]: s for s in state["table"]["seats"]}
    assert seats[offender.seat]["penalty"] == f"penalty · {len(seated_at(running, number))} left"
    assert [s["seat"] for s in seats.values() if s["penalty"]] == [offender.seat]


def test_the_dealer_links_page_says_hand_for_hand(api, running, client):
    """Evening run: the dealer link page showed nothing while the room played hand-for-hand;
    its state and page carry a HAND-FOR-HAND banner while it is on."""
    number = tables_in_play(running)[0]
    link = api.get(f"/tournaments/{running.pk}/tables/{number}/dealer-link").json()["url"]
    token = token_of(link)
    assert client.get(f"/dealer/{token}/state.json").json()["hand_for_hand"] is False
    on = api.put(f"/tournaments/{running.pk}/hand-for-hand", {"active": True})
    assert on.status_code == 200, on.content
    assert client.get(f"/dealer/{token}/state.json").json()["hand_for_hand"] is True
    page = client.get(f"/dealer/{token}/").content.decode()
    assert 'class="dl-h4h" data-field="h4h" role="status">' in page


# --- a pending mover: he sits in his old seat until he has left (docs/rules.md §3.4) ----------


def test_a_pending_mover_is_busted_by_his_old_tables_dealer_not_by_the_new_ones(
    director, room, structure, client
):
    """Production run: a player whose balancing move was pending (called, not confirmed) busted
    in his old seat; his old table's dealer link answered 403 "This dealer link is for table 2
    only" (the chart already shows him at his new table). The link of the table he really sits
    at busts him and his move is void, as the console's bust-out does; the new table's link is
    refused, 403, nothing changed."""
    from tests.factories import pending_move_into_table_one

    tournament, move = pending_move_into_table_one(director, room, structure)
    mover = Entry.objects.get(pk=move.entry_id)
    assert mover.tournament_table.number == move.to_table == 1  # the chart: already moved
    body = {"eliminations": [{"entry_id": mover.pk}]}
    path = f"/tournaments/{tournament.pk}/eliminations"

    before = snapshot(tournament)
    assert_refused(
        ApiClient(dealer_token(tournament.pk, move.to_table, 0)).post(path, body),
        "dealer_link_other_table",
    )
    assert snapshot(tournament) == before
    assert Entry.objects.get(pk=mover.pk).status == Entry.Status.ACTIVE

    busted = ApiClient(dealer_token(tournament.pk, move.from_table, 0)).post(path, body)
    assert busted.status_code == 200, busted.content
    assert Entry.objects.get(pk=mover.pk).status == Entry.Status.ELIMINATED
    move.refresh_from_db()
    assert move.status == FloorAction.Status.SUPERSEDED
    assert AuditEntry.objects.filter(
        tournament=tournament, actor_name=f"dealer link of table {move.from_table}"
    ).exists()


def test_the_dealer_links_page_shows_a_pending_mover_in_his_old_seat(
    director, room, structure, client
):
    """Production run: the origin table's dealer link showed the pending mover's seat as
    "empty", greyed out, and the destination table showed him already seated there. The state
    now says where he really sits: his old seat, with the console's arrow ("→ T1 S2"), bustable
    there; the seat he goes to is held for him, arriving, and not his to bust yet."""
    from tests.factories import pending_move_into_table_one

    tournament, move = pending_move_into_table_one(director, room, structure)
    mover = Entry.objects.select_related("player").get(pk=move.entry_id)

    def seats(number):
        state = client.get(f"/dealer/{dealer_token(tournament.pk, number, 0)}/state.json").json()
        return {s["seat"]: s for s in state["table"]["seats"]}

    old = seats(move.from_table)[move.from_seat]
    assert old["entry_id"] == mover.pk and old["player_name"] == mover.player.name
    assert old["leaving"] == f"leaving → T{move.to_table} S{move.to_seat}"
    assert old["arriving"] is None

    new = seats(move.to_table)[move.to_seat]
    assert new["entry_id"] is None  # not bustable at the table he has not reached
    assert new["player_name"] == mover.player.name
    assert new["arriving"] == f"arriving ← T{move.from_table} S{move.from_seat}"
    assert new["leaving"] is None
    assert all(
        s["leaving"] is None and s["arriving"] is None
        for s in seats(move.to_table).values()
        if s["seat"] != move.to_seat
    )


# --- a finished tournament: the link's page says it is over, its writes are refused -----------


@pytest.mark.parametrize("end", ["finished", "cancelled"])
def test_a_finished_tournaments_link_says_it_is_over_and_refuses_writes(
    api, director, tournament, client, end
):
    """Production run: after the last bust-out the dealer link's buttons stayed active. Its
    state says the tournament is over (the page's line, the buttons disabled) and every dealer
    write answers 409 `{code, detail}`, nothing changed."""
    ids = seat_players(api, tournament, numbered_players(4))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    number = tables_in_play(tournament)[0]
    link = dealer(api, tournament, number)
    token = token_of(
        api.get(f"/tournaments/{tournament.pk}/tables/{number}/dealer-link").json()["url"]
    )
    assert client.get(f"/dealer/{token}/state.json").json()["over"] is None
    if end == "finished":
        for name in ("P3", "P2", "P1"):
            busted = link.post(
                f"/tournaments/{tournament.pk}/eliminations",
                {"eliminations": [{"entry_id": ids[name]}]},
            )
            assert busted.status_code == 200, busted.content
    else:
        cancelled = api.post(
            f"/tournaments/{tournament.pk}/cancel", {"reason": "Áramszünet", "settlement": "equal"}
        )
        assert cancelled.status_code == 200, cancelled.json()
    over = {
        "finished": "The tournament is over.",
        "cancelled": "The tournament is cancelled: Áramszünet",
    }[end]
    state = client.get(f"/dealer/{token}/state.json").json()
    assert state["over"] == over
    page = client.get(f"/dealer/{token}/").content.decode()
    assert f'data-field="over" role="status">{over}</p>' in page
    before = snapshot(tournament)
    base = f"/tournaments/{tournament.pk}"
    for path, body in (
        (f"/tables/{number}/hands", {}),
        ("/eliminations", {"eliminations": [{"entry_id": ids["P0"]}]}),
        (f"/tables/{number}/clock-calls", {"seat": Entry.objects.get(pk=ids["P0"]).seat or 1}),
    ):
        response = link.post(base + path, body)
        assert response.status_code == 409, (path, response.status_code, response.content)
        answer = response.json()
        assert set(answer) == {"code", "detail"} and answer["code"] and answer["detail"], answer
    assert snapshot(tournament) == before


def test_a_dealer_penalises_from_his_link_only_where_the_house_allows_it(api, director, tournament):
    """Atlas 004:3, 79 (issue 31 item 6): the dealer gives the warning and the three-round stop
    to a player of his table; the floor undoes it; elsewhere, or a disqualification, refused."""
    from django.test import Client

    from tables.dealer_links.selectors import dealer_token
    from tables.models import TournamentTable
    from tests.conftest import numbered_players, seat_players
    from tourney.models import Entry, Penalty

    seat_players(api, tournament, numbered_players(20))
    api.post(f"/tournaments/{tournament.pk}/clock/start")
    number = TournamentTable.objects.filter(tournament=tournament, status="open").first().number
    here = Entry.objects.filter(tournament=tournament, tournament_table__number=number).first()
    there = Entry.objects.filter(tournament=tournament).exclude(tournament_table__number=number)[0]
    link = Client(headers={"Authorization": f"Bearer {dealer_token(tournament.pk, number, 0)}"})
    url = f"/api/v1/tournaments/{tournament.pk}/penalties"

    def give(entry, kind="warning", **extra):
        body = {"entry_id": entry.pk, "kind": kind, "reason": "Trágár beszéd", **extra}
        return link.post(url, body, content_type="application/json")

    assert give(here).status_code == 403  # rimoc: the floor's alone
    tournament.house_rules = "atlas"
    tournament.save(update_fields=["house_rules"])
    assert give(here).status_code == 201
    stop = give(here, "missed_rounds", rounds=3)
    assert stop.status_code == 201, stop.json()
    assert give(there).json()["code"] == "dealer_link_other_table"
    refused = give(here, "disqualification", chips=1)
    assert refused.status_code == 403 and refused.json()["code"] == "dealer_link_not_allowed"
    assert Penalty.objects.filter(entry=here).count() == 2
    page = Client().get(f"/dealer/{dealer_token(tournament.pk, number, 0)}/").content.decode()
    assert '"dealer_penalties": true' in page
    undone = api.post(f"/tournaments/{tournament.pk}/penalties/{stop.json()['penalty']['id']}/undo")
    assert undone.status_code == 200


@pytest.mark.parametrize(
    ("profile", "says", "big_blind"),
    [
        ("rimoc", "last card of the deal", False),
        ("mirage", "first card is dealt", False),
        ("atlas", "first betting round", True),
    ],
)
def test_the_dealer_link_names_a_seat_away_and_the_houses_live_hand_rule(
    api, running, client, profile, says, big_blind
):
    """docs/rules.md §2.3: a seat marked away shows on its table's dealer link with the
    house's `live_checkpoint` (and Atlas's `absent_bb_exception`: live in the big blind)."""
    running.house_rules = profile
    running.save(update_fields=["house_rules"])
    number = tables_in_play(running)[0]
    away = seated_at(running, number)[2]
    assert api.post(f"/tournaments/{running.pk}/entries/{away.pk}/absent").status_code == 200
    link = api.get(f"/tournaments/{running.pk}/tables/{number}/dealer-link").json()["url"]
    state = client.get(f"/dealer/{token_of(link)}/state.json").json()
    assert [s["seat"] for s in state["table"]["seats"] if s["away"]] == [away.seat]
    assert says in state["away_text"]
    assert ("big blind" in state["away_text"]) is big_blind
