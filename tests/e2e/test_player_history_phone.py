"""A player's history page (penalties:player: his bans, penalties and entries across
tournaments, linked as 'Player page' from the penalty form) on a floor person's phone, in
en/hu/cs, at 390x844 and 360x740: nothing scrolls sideways (not the page, not a table, not the
top bar's links), nothing is cut and nothing overlaps. Evening run: at 390x844 the tables and
the top bar's links scrolled sideways and showed words cut at the edge. Screenshots:
test-artifacts/screenshots/player-history-*.png.
"""

import pytest
from django.urls import reverse

from clocks.clock.usecases import clock_operate
from tests.conftest import friday_deepstack, seat_players
from tests.e2e.conftest import PASSWORD, with_password
from tests.e2e.phone_fit import PHONES as SIZES
from tests.e2e.phone_fit import fit_problems
from tourney.models import Entry
from tourney.penalties.usecases import penalty_give
from tourney.players.usecases import player_ban

pytestmark = pytest.mark.django_db(transaction=True)

NAME = "Gyöngyösi-Szentmiklóssy Bernadett"


@pytest.fixture
def history(api, director, structure, room):
    """One player's two evenings, each with a nine-hand penalty and a long reason, and a ban
    from every tournament: every section of his page has a row."""
    player = None
    for name in ("Péntek esti Deepstack #47 · Rimóc bajnokság 9. forduló", "Szombati Turbó"):
        tournament = friday_deepstack(director, structure, room)
        tournament.name = name
        tournament.save(update_fields=["name"])
        if player is None:
            ids = seat_players(api, tournament, [NAME, "Kovács Ádám", "Varga Ferenc"])
            player = Entry.objects.get(pk=ids[NAME]).player
        else:
            api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player.pk})
            seat_players(api, tournament, ["Zeman Jan", "Molnár Dávid"])
        clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
        entry = Entry.objects.get(tournament=tournament, player=player)
        penalty_give(
            actor=director, tournament_id=tournament.pk, entry_id=entry.pk,
            kind="missed_hands", hands=9,
            reason="Trágár beszéd a dealerrel szemben, második figyelmeztetés után",
        )  # fmt: skip
    player_ban(
        actor=director,
        player_id=player.pk,
        reason="Ismételt sportszerűtlen viselkedés a Rimóc bajnokságban",
        ends_at=None,
    )
    return player


@pytest.mark.parametrize("size", list(SIZES))
def test_the_players_history_fits_a_phone(live_server, browser, login, director, history, size):
    context = browser.new_context(
        viewport=SIZES[size], is_mobile=True, has_touch=True, device_scale_factor=2
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    problems = []
    try:
        login(page, with_password(director), PASSWORD)
        url = live_server.url + reverse("penalties:player", args=[history.pk])
        for lang in ("en", "hu", "cs"):
            page.context.add_cookies(
                [{"name": "django_language", "value": lang, "url": live_server.url}]
            )
            page.goto(url)
            problems += fit_problems(page, f"player-history-{size}-{lang}", size)
    finally:
        context.close()
    assert not problems, "\n".join(problems)
