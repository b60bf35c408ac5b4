"""Issue 15 part 2: a dealer link does "the color-up of that table". During a color-up break
the link's page shows a Color-up banner leading to /dealer/<token>/color-up/: the color-up
page's own views (clocks/color_ups/views.py) with the link as the actor, back to the dealer page
once confirmed. Another table's color-up and a revoked link are refused: 403 `{code, detail}`
(a form's POST, the API) or a page saying why (the phone's GET), and nothing changes."""
# ruff: noqa: F811 (the `game` fixture is imported from tests/clocks/color_up_game.py)

import pytest
from django.test import Client

from clocks.models import ColorUp
from tables.dealer_links.selectors import dealer_token
from tables.dealer_links.usecases import dealer_link_revoke
from tests.clocks.color_up_game import BREAK_100, game, jump  # noqa: F401 (fixture)
from tests.conftest import ApiClient
from tourney.models import AuditEntry

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
SEATS = [{"seat": 1, "odd_chips": 3}, {"seat": 4, "odd_chips": 4}, {"seat": 7, "odd_chips": 2}]
RACE = {"method": "race", "entry_mode": "virtual", "odd_1": "3", "odd_4": "4", "odd_7": "2"}


def link(game, number: int = 1) -> str:
    return f"/dealer/{dealer_token(game.pk, number, 0)}"


def assert_refused(response, code: str) -> None:
    assert response.status_code == 403, response.content
    body = response.json()
    assert set(body) == {"code", "detail"} and body["code"] == code and body["detail"]


def test_the_link_colors_up_its_own_table_from_the_banner_and_goes_back(api, game):
    phone, base = Client(), link(game)
    assert phone.get(f"{base}/state.json").json()["color_up"] is None
    assert (
        'id="dealer-link-colorup" data-field="colorup" href'
        in phone.get(f"{base}/").content.decode()
    )
    jump(api, game, BREAK_100)
    page = phone.get(f"{base}/").content.decode()
    assert f'href="{base}/color-up/">' in page and "colors up now" in page
    assert phone.get(f"{base}/state.json").json()["color_up"] == "open"

    form = phone.get(f"{base}/color-up/")
    html = form.content.decode()
    assert form.status_code == 200 and 'name="odd_1"' in html and "Anna" in html
    assert f'href="{base}/"' in html and f"{base}/color-up/run/" in html  # the link's own routes
    plan = phone.post(f"{base}/color-up/preview/", RACE).content.decode()
    assert "9 odd chips of 100" in plan
    dealt = phone.post(f"{base}/color-up/run/", RACE | {"mode": "virtual"}, headers=HTMX)
    assert dealt.status_code == 204, dealt.headers.get("HX-Trigger")
    color_up = ColorUp.objects.get()
    assert color_up.status == ColorUp.Status.OPEN
    assert phone.get(f"{base}/state.json").json()["color_up"] == "dealt"
    live = phone.get(f"{base}/color-up/live/").content.decode()
    assert 'id="colorup-confirm"' in live and "colorup-discard" not in live  # undo: staff only

    done = phone.post(f"{base}/color-up/confirm/", {"color_up": color_up.pk}, headers=HTMX)
    assert done.status_code == 204 and done.headers["HX-Redirect"] == f"{base}/"
    assert "undoUrl" not in done.headers["HX-Trigger"]
    color_up.refresh_from_db()
    assert color_up.status == ColorUp.Status.DONE
    assert AuditEntry.objects.filter(actor_name="dealer link of table 1").exists()
    assert phone.get(f"{base}/state.json").json()["color_up"] == "done"
    assert (
        'data-field="colorup" href="' + f'{base}/color-up/" hidden'
        in phone.get(f"{base}/").content.decode()
    )


def test_another_tables_link_is_refused_and_nothing_changes(api, game):
    jump(api, game, BREAK_100)
    dealt = api.post(
        f"/tournaments/{game.pk}/color-ups",
        {"table": 1, "method": "race", "seats": SEATS, "confirm": False},
    )
    assert dealt.status_code == 201, dealt.content
    color_up = ColorUp.objects.get()
    audit = AuditEntry.objects.count()
    other, token = link(game, 2), dealer_token(game.pk, 2, 0)
    phone = Client()
    answer = phone.post(f"{other}/color-up/confirm/", {"color_up": color_up.pk}, headers=HTMX)
    assert_refused(answer, "dealer_link_other_table")
    found = phone.post(
        f"{other}/color-up/found/", {"color_up": color_up.pk, "seat": 1, "value": 100}
    )
    assert_refused(found, "dealer_link_other_table")
    by_api = ApiClient(token)
    assert_refused(
        by_api.post(f"/tournaments/{game.pk}/color-ups/{color_up.pk}/confirm", {}),
        "dealer_link_other_table",
    )
    assert_refused(
        by_api.post(
            f"/tournaments/{game.pk}/color-ups",
            {"table": 1, "method": "race", "seats": [], "confirm": True},
        ),
        "dealer_link_other_table",
    )
    color_up.refresh_from_db()
    assert color_up.status == ColorUp.Status.OPEN and AuditEntry.objects.count() == audit


def test_a_revoked_link_is_refused_and_nothing_changes(api, director, game):
    jump(api, game, BREAK_100)
    base, token = link(game), dealer_token(game.pk, 1, 0)
    dealer_link_revoke(actor=director, tournament_id=game.pk, number=1)
    audit = AuditEntry.objects.count()
    phone = Client()
    page = phone.get(f"{base}/color-up/")
    assert page.status_code == 403 and "revoked" in page.content.decode()
    assert 'name="odd_1"' not in page.content.decode()
    ran = phone.post(f"{base}/color-up/run/", RACE | {"mode": "virtual"}, headers=HTMX)
    assert_refused(ran, "dealer_link_revoked")
    assert_refused(phone.post(f"{base}/color-up/preview/", RACE), "dealer_link_revoked")
    assert_refused(
        ApiClient(token).post(
            f"/tournaments/{game.pk}/color-ups",
            {"table": 1, "method": "race", "seats": [{"seat": 1, "odd_chips": 3}]},
        ),
        "dealer_link_revoked",
    )
    assert ColorUp.objects.count() == 0 and AuditEntry.objects.count() == audit
