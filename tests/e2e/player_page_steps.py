"""Steps the player page's browser tests share: a tournament under way, a phone, his page."""

import random

from clocks.clock.usecases import clock_operate
from tables.seating.usecases import seats_draw
from tests.e2e.conftest import PHONE
from tourney.player_page.selectors import player_token
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register


def arrange_players(director, tournament, count: int = 19) -> None:
    for n in range(count):
        player = player_create(actor=director, name=f"Játékos {n + 1:02d}")
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(4))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")


def phone_context(browser, locale: str, **options):
    """A 390x844 phone in `locale` (options: e.g. timezone_id, the phone's own zone)."""
    context = browser.new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
        locale=locale,
        **options,
    )
    context.set_default_timeout(10_000)
    return context


def open_online(context, base: str, tournament, entry_id: int):
    """The player's page of `entry_id`, its event stream connected."""
    page = context.new_page()
    page.goto(f"{base}/p/{player_token(tournament.pk, entry_id)}/")
    page.wait_for_function("() => document.body && document.body.dataset.stream === 'online'")
    return page
