"""The pages take what the API takes (issue 24): every number a form reads is bounded as the
API's schema type for it (one source: infra/web/schema_types.py), so a value past its column is
refused on the page (422, nothing changed) instead of answering 500; a JSON import with a
number of 5,000 digits and a percentage of 1e999999 are refused; a query with "²" is no
number; and no form sends the browser to another site."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.tourney.settings_form import form_data
from tourney.models import AuditEntry, PayoutStructure, Tournament
from tourney.setup.usecases import settings_token

pytestmark = pytest.mark.django_db

INT32_PAST = "2147483648"
INT64_PAST = "9223372036854775808"
SETTINGS_CASES = [
    ("max_entries", INT32_PAST),
    ("rebuy_max", INT32_PAST),
    *[
        (field, INT64_PAST)
        for field in (
            "starting_stack",
            "guarantee",
            "rebuy_buy_in",
            "rebuy_fee",
            "rebuy_chips",
            "addon_buy_in",
            "addon_fee",
            "addon_chips",
            "buy_in",
            "fee",
        )
    ],
    ("table_numbers", "1, 99999999999999999999"),
    ("rule_table_thresholds", "9, 99999999999999999999"),
    ("max_entries", "9" * 5_000),
    ("rule_level_minutes", INT64_PAST),
    ("rule_reentry_max", INT32_PAST),
]


@pytest.fixture
def page_client(director) -> Client:
    """The director's browser, which sees a failing view as the 500 page it answers."""
    client = Client(raise_request_exception=False)
    client.force_login(director)
    return client


@pytest.mark.parametrize(("field", "value"), SETTINGS_CASES)
def test_the_settings_page_refuses_a_number_past_its_column(page_client, tournament, field, value):
    data = form_data(page_client, tournament)
    data[field] = value
    before = settings_token(tournament)
    r = page_client.post(reverse("tourney:tournament_settings", args=[tournament.pk]), data)
    assert r.status_code == 422, r.status_code
    assert field in r.context["form"].errors
    assert settings_token(Tournament.objects.get(pk=tournament.pk)) == before
    assert not AuditEntry.objects.filter(action="tournament.update").exists()


@pytest.mark.parametrize("value", [INT64_PAST, "9" * 5_000])
def test_the_new_tournament_page_refuses_a_number_past_its_column(
    page_client, structure, room, value
):
    data = {
        "name": "Big one",
        "structure": structure.pk,
        "room": room.pk,
        "house_rules": "tda2024",
        "starting_stack": value,
        "buy_in": "10000",
        "fee": "2000",
        "rebuy_condition": "at_most_start",
    }
    r = page_client.post(reverse("tourney:tournament_new"), data)
    assert r.status_code in (200, 422)
    assert "starting_stack" in r.context["form"].errors
    assert not Tournament.objects.exists()


def test_a_structure_import_with_a_number_of_5000_digits_is_refused(page_client, structure):
    text = json.dumps(
        {"name": "Huge", "chips": [{"value": 25, "color": "green"}], "levels": []}
    ).replace("25", "9" * 5_000)
    count = type(structure).objects.count()
    r = page_client.post(reverse("clocks:structure_import"), {"text": text})
    assert r.status_code == 200
    assert "too large" in r.content.decode()
    assert type(structure).objects.count() == count


@pytest.mark.parametrize("percent", ["1e999999", "Infinity", "101", "-1"])
def test_a_payout_percentage_past_100_is_refused(api, percent):
    body = {
        "name": "Broken",
        "brackets": [{"min_entries": 2, "max_entries": None, "percents": [percent, "50"]}],
    }
    count = PayoutStructure.objects.count()
    r = api.post("/payout-structures", body)
    assert r.status_code == 422, r.content
    assert r.json()["code"] in ("bad_percent", "invalid_input", "invalid_json")
    assert PayoutStructure.objects.count() == count


def test_a_json_number_that_overflows_to_infinity_is_refused(api):
    raw = '{"name": "Broken", "brackets": [{"min_entries": 2, "percents": [1e999999, 50]}]}'
    r = api.client.post(
        "/api/v1/payout-structures", raw, content_type="application/json", headers=api.headers
    )
    assert r.status_code == 422 and r.json()["code"] == "invalid_json"


@pytest.mark.parametrize("query", ["t=²", "every=²", "t=99999999999999999999", "every=9" * 3])
def test_the_festival_links_page_reads_no_number_from_a_superscript(page_client, query):
    r = page_client.get(reverse("festival:links") + "?" + query)
    assert r.status_code == 200


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("tourney:desk", "last=²"),
        ("tourney:desk", "entry=99999999999999999999"),
        ("tourney:desk", "refunded=²&purchase=²"),
    ],
)
def test_the_desk_reads_no_id_from_a_superscript_or_past_64_bits(
    page_client, tournament, path, query
):
    r = page_client.get(reverse(path, args=[tournament.pk]) + "?" + query)
    assert r.status_code == 200


def test_the_audit_log_and_players_pages_read_no_number_from_a_superscript(page_client):
    assert page_client.get(reverse("tourney:audit_log") + "?tournament=²&page=²").status_code == 200
    assert page_client.get(reverse("tourney:players") + "?page=²").status_code == 200


@pytest.mark.parametrize("target", ["https://evil.example/phish", "//evil.example/x"])
@pytest.mark.parametrize("view", ["penalties:give", "penalties:undo", "penalties:end"])
def test_the_penalty_forms_never_send_the_browser_to_another_site(
    page_client, tournament, view, target
):
    r = page_client.post(reverse(view, args=[tournament.pk]), {"next": target})
    assert r.status_code == 302
    assert "evil.example" not in r["Location"]
    assert r["Location"] == reverse("tourney:console", args=[tournament.pk])


def test_the_penalty_forms_go_back_to_a_page_of_this_site(page_client, tournament):
    back = reverse("tables:floor_tables", args=[tournament.pk])
    r = page_client.post(reverse("penalties:give", args=[tournament.pk]), {"next": back})
    assert r.status_code == 302 and r["Location"] == back
