"""Staff pages with wide tables on a floor person's phone (390x844, 360x740) in en and hu:
each row reads as a card (.data-table.stacks), nothing scrolls sideways, the page is no wider
than the window, the geometry check passes, the rows' buttons stay whole and 44 px tall, and
the rows keep their order (the players by the language's collation). Evening run: the players
list and the audit log scrolled sideways at 390x844 and cut words at the window's edge.
Screenshots: test-artifacts/screenshots/staff-tables-<page>-<size>-<lang>.png.
"""

import random
import unicodedata

import pytest
from django.urls import reverse

from clocks.structures.usecases import structure_duplicate
from tables.rooms.usecases import seat_restriction_set
from tables.seating.usecases import seats_draw
from tests.conftest import friday_deepstack, make_staff
from tests.e2e.conftest import PASSWORD, with_password
from tests.e2e.phone_fit import PHONES, action_problems, each_language, fit_problems
from tourney.models import Tournament
from tourney.payouts.operations import payout_structure_templates_install
from tourney.payouts.usecases import payout_structure_create
from tourney.players.selectors import players_page
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register
from tourney.staff.usecases import api_token_create

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ("en", "hu")
NAMES = [
    "Gyöngyösi-Szentmiklóssy Bernadett", "Törökszentmiklósi Ifj. Ödön", "Csizmadia Ede",
    "Cukor Béla", "Hajdú-Szoboszlay Kornélia", "Szentgyörgyvölgyi Zsófia Boglárka",
    "Bükkszentkereszti Levente", "Öreg Béla", "Orbán Zoltán", "Mészáros Enikő Krisztina",
    "Zsigmond Örs", "Zeman Jan", "Horváth Júlia Boglárka", "Lakatos Ilona", "Szalai Gyula",
    "Kovács Ádám", "Varga Ferenc Zsolt", "Dvořáková Markéta", "Řezníček Přemysl",
    "Nagy-Bozsoky Szilveszter", "Fekete Bence", "Pintér Szilveszter", "Bíró Henrietta",
    "Hegedűs Norbert",
]  # fmt: skip


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


@pytest.fixture
def evening_players(director, tournament):
    """Two dozen players with long names, phones, e-mails and nicknames, half of them
    registered for a tournament with a long name: the players list's and the audit log's rows
    hold the longest values a room has."""
    tournament.name = "Péntek esti Deepstack #47 · Rimóc bajnokság 9. forduló"
    tournament.save(update_fields=["name"])
    for i, name in enumerate(NAMES):
        player = player_create(
            actor=director,
            name=name,
            nickname="Szerencsés Lóhere" if i % 3 == 0 else "",
            phone=f"+36 30 {120 + i} {4500 + i}",
            email=f"{_ascii(name.split()[0].lower())}.{i}@rimocpokerklub-tagok.hu",
        )
        if i % 2 == 0:
            entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    return tournament


# The rows as they stand on the screen, top to bottom: the first cell's text of each.
ROWS_ON_SCREEN = """(selector) => [...document.querySelectorAll(selector + " tbody tr")]
  .map((tr) => [tr.getBoundingClientRect().top, tr.cells[0].innerText.trim()])
  .sort((a, b) => a[0] - b[0]).map((row) => row[1])"""


@pytest.fixture
def sign_in(login, director):
    return lambda page: login(page, with_password(director), PASSWORD)


@pytest.mark.parametrize("size", list(PHONES))
def test_the_players_list_fits_a_phone(live_server, browser, sign_in, evening_players, size):
    def check(page, name, lang):
        problems = fit_problems(page, name, size)
        problems += action_problems(page, name, "#players-table td.actions .btn", size)
        rows, _total = players_page("", "name", 0, 50, language=lang)
        shown = page.evaluate(ROWS_ON_SCREEN, "#players-table")
        shown = [text.split("“")[0].strip() for text in shown]  # the name, not the nickname
        if shown != [row.name for row in rows]:
            problems.append(f"{name}: the rows in another order than the language's: {shown}")
        return problems

    url = live_server.url + reverse("tourney:players")
    problems = each_language(browser, sign_in, url, size, LANGUAGES, check, "staff-tables-players")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", list(PHONES))
def test_the_audit_log_fits_a_phone(live_server, browser, sign_in, evening_players, size):
    def check(page, name, lang):
        page.locator("#audit-table details summary").first.click()  # a change's details open
        problems = fit_problems(page, name, size)
        return problems + action_problems(page, name, "#audit-table [data-row-undo]", size)

    url = live_server.url + reverse("tourney:audit_log")
    problems = each_language(browser, sign_in, url, size, LANGUAGES, check, "staff-tables-audit")
    assert not problems, "\n".join(problems)


@pytest.fixture
def evening_room(director, structure, room, evening_players):
    """The players' tournament with its seats drawn, two more with long names (one running, one
    finished), and four staff with long user names, each with an API token."""
    seats_draw(actor=director, tournament_id=evening_players.pk, rng=random.Random(7))
    for name, status in (
        ("Szombati Turbó · Hajdúszoboszlói Nyári Fesztivál főversenye", "running"),
        ("Csütörtöki Bounty Builder #12 · Rimóc bajnokság 8. forduló", "finished"),
    ):
        other = friday_deepstack(director, structure, room, name=name)
        Tournament.objects.filter(pk=other.pk).update(status=status)
    for username, role in (
        ("szentgyorgyvolgyi.zsofia", "director"),
        ("torokszentmiklosi.odon", "floor"),
        ("hajdu-szoboszlay.kornelia", "desk"),
    ):
        api_token_create(actor=director, user=make_staff(username, role))
    api_token_create(actor=director, user=director)
    for name in ("Rimóc bajnokság · Hétvégi Mélystack 30 perces szintekkel", "Szombati Turbó"):
        structure_duplicate(actor=director, structure_id=structure.pk, name=name)
    payout_structure_templates_install()
    for table, seat, kind, note in (
        (1, 1, "reserved", "Kerekesszékes hozzáférés a bejárat mellett"),
        (2, 10, "blocked", "Törött szék, a karbantartó hétfőn cseréli"),
        (6, 5, "reserved", ""),
    ):
        seat_restriction_set(actor=director, room_id=room.pk, table_number=table, seat=seat,
                             kind=kind, note=note)  # fmt: skip
    for name in ("Rimóc bajnokság · Fesztivál főverseny kifizetései", "Bounty Builder"):
        payout_structure_create(actor=director, name=name, brackets=BRACKETS)
    return evening_players


BRACKETS = [
    {"min_entries": 1, "max_entries": 29, "percents": [100]},
    {"min_entries": 30, "max_entries": None, "percents": [40, 25, 15, 12, 8]},
]


# Each list with its rows' buttons (44 px tall, whole on the window, on every phone).
LISTS = {
    "home": (lambda t: reverse("tourney:home"), ".row-actions .btn"),
    "staff": (lambda t: reverse("tourney:staff"), "table button[name]"),
    "room": (lambda t: reverse("tables:room", args=[t.room_id]), "#restrictions .btn"),
    "structures": (lambda t: reverse("clocks:structures"), ".structures-table .row-actions .btn"),
    "payout-structures": (
        lambda t: reverse("payouts:structures"),
        "#payout-structures .row-actions .btn",
    ),
}


@pytest.mark.parametrize("size", list(PHONES))
@pytest.mark.parametrize("screen", list(LISTS))
def test_a_staff_list_fits_a_phone(live_server, browser, sign_in, evening_room, screen, size):
    path, buttons = LISTS[screen]

    def check(page, name, lang):
        return fit_problems(page, name, size) + action_problems(page, name, buttons, size)

    url = live_server.url + path(evening_room)
    problems = each_language(browser, sign_in, url, size, LANGUAGES, check, f"staff-{screen}")
    assert not problems, "\n".join(problems)
