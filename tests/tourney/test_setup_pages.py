"""The tournament settings page, the home page's sections, the seats count and the seating
print (issue 13 item 11)."""

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from clocks.models import Structure
from tables.models import TournamentTable
from tests.conftest import seat_players
from tests.factories import TournamentFactory
from tests.tourney.settings_form import form_data
from tourney.models import AuditEntry, Tournament
from tourney.setup.usecases import settings_token
from tourney.tournaments.selectors import tournament_capacity


def test_the_page_shows_every_house_rule_with_the_profile_value(director_client, tournament):
    page = director_client.get(reverse("tourney:tournament_settings", args=[tournament.pk]))
    text = page.content.decode()
    assert 'name="rule_final_table_size"' in text and 'name="rule_h4h_mode"' in text
    assert "Empty: the house rules&#x27; value" in text or "Empty: the house rules' value" in text


def test_saving_changes_settings_and_audits(director_client, tournament):
    data = form_data(director_client, tournament)
    data.update(
        name="Friday Deepstack #12",
        scheduled_start="2031-05-02T19:00",
        max_entries="45",
        rule_final_table_size="8",
        rule_dead_button="no",
        rule_fixed_hands="-",
    )
    r = director_client.post(reverse("tourney:tournament_settings", args=[tournament.pk]), data)
    assert r.status_code == 302, r.context["form"].errors
    t = Tournament.objects.get(pk=tournament.pk)
    assert t.name == "Friday Deepstack #12" and t.max_entries == 45
    assert t.scheduled_start == datetime(2031, 5, 2, 17, 0, tzinfo=UTC)  # 19:00 in Budapest
    assert t.rules_overrides == {"final_table_size": 8, "dead_button": False, "fixed_hands": None}
    assert AuditEntry.objects.filter(action="tournament.update").count() == 1


@pytest.mark.parametrize(
    ("field", "value"),
    [("rule_final_table_size", "40"), ("rule_table_thresholds", "9, x"), ("max_entries", "0")],
)
def test_bad_input_is_refused_on_the_page(director_client, tournament, field, value):
    data = form_data(director_client, tournament)
    data[field] = value
    before = settings_token(tournament)
    r = director_client.post(reverse("tourney:tournament_settings", args=[tournament.pk]), data)
    assert r.status_code == 422 and r.context["form"].errors
    assert settings_token(Tournament.objects.get(pk=tournament.pk)) == before
    assert not AuditEntry.objects.filter(action="tournament.update").exists()


def test_two_directors_never_lose_an_update(director, tournament):
    first, second = Client(), Client()
    first.force_login(director)
    second.force_login(director)
    a, b = form_data(first, tournament), form_data(second, tournament)
    a["name"] = "Set by the first"
    assert (
        first.post(reverse("tourney:tournament_settings", args=[tournament.pk]), a).status_code
        == 302
    )
    b["max_entries"] = "30"
    r = second.post(reverse("tourney:tournament_settings", args=[tournament.pk]), b)
    assert r.status_code == 409
    assert "Someone changed" in r.content.decode()
    t = Tournament.objects.get(pk=tournament.pk)
    assert t.name == "Set by the first" and t.max_entries is None


def test_fixed_settings_are_read_only_with_the_reason(api, director_client, tournament):
    seat_players(api, tournament, ["A", "B"])
    page = director_client.get(reverse("tourney:tournament_settings", args=[tournament.pk]))
    form = page.context["form"]
    assert form["buy_in"].field.disabled and form["table_numbers"].field.disabled
    assert form["rule_seats_per_table"].field.disabled
    assert not form["rule_balance_threshold"].field.disabled
    assert "Entries have been paid" in page.content.decode()


def test_home_lists_finished_events_apart_with_start_and_cap(api, director_client, tournament):
    t = Tournament.objects.get(pk=tournament.pk)
    t.scheduled_start = datetime(2031, 5, 2, 17, 0, tzinfo=UTC)
    t.max_entries = 45
    t.save()
    done = TournamentFactory(name="Last week", room=t.room, structure=t.structure, finished=True)
    page = director_client.get("/")
    upcoming = [t for t, _s in page.context["tournaments"]]
    finished = [t for t, _s in page.context["finished"]]
    assert upcoming == [t] and finished == [done]
    text = page.content.decode()
    assert "19:00" in text and "cap 45" in text


def test_players_left_is_counted_against_the_seats_not_the_entries(
    api, director_client, tournament
):
    seat_players(api, tournament, [f"P{i}" for i in range(3)])
    page = director_client.get(reverse("tourney:console_summary", args=[tournament.pk]))
    text = page.content.decode()
    entries_stat = text.split('data-stat="players_remaining"')[0]
    assert "seats" not in entries_stat.split('data-stat="entries"')[1]
    seats = tournament_capacity(tournament)
    assert f"of {seats} seats" in text and seats > 3


def test_the_rimoc_template_notes_name_no_file(structure):
    assert "_" not in Structure.objects.get(pk=structure.pk).description.split(":")[0]
    assert ".txt" not in Structure.objects.get(pk=structure.pk).description


def test_the_seating_print_is_a_plain_list(api, director_client, tournament):
    seat_players(api, tournament, ["Kovács Ádám", "Varga Ferenc"])
    page = director_client.get(reverse("tables:seating_chart", args=[tournament.pk]))
    text = page.content.decode()
    assert 'id="print-seating"' in text and "seating-print.css" in text
    tables = TournamentTable.objects.filter(tournament=tournament, status="open").count()
    assert text.count('class="print-seating-table"') == tables


def test_every_house_rule_and_choice_has_a_label_and_a_section():
    from tourney.domain.house_rules_params import PARAMETER_CHOICES, PARAMETER_KEYS
    from tourney.setup.forms import CHOICES, LABELS, SECTIONS

    in_sections = [key for _title, keys in SECTIONS for key in keys]
    assert sorted(in_sections) == sorted(PARAMETER_KEYS) == sorted(LABELS)
    assert {c for choices in PARAMETER_CHOICES.values() for c in choices} <= set(CHOICES)


def test_the_home_form_takes_a_start_and_a_cap(director_client, structure, room):
    data = {
        "name": "Saturday Freezeout",
        "scheduled_start": "2031-06-07T18:00",
        "max_entries": "45",
        "structure": structure.pk,
        "room": room.pk,
        "house_rules": "rimoc",
        "starting_stack": "40000",
        "buy_in": "10000",
        "fee": "2000",
        "rebuy_condition": "at_most_start",
        "waiting_list": "on",
    }
    r = director_client.post(reverse("tourney:tournament_new"), data)
    assert r.status_code == 302
    t = Tournament.objects.get(name="Saturday Freezeout")
    assert t.max_entries == 45 and t.scheduled_start == datetime(2031, 6, 7, 16, 0, tzinfo=UTC)
    bad = director_client.post(reverse("tourney:tournament_new"), {**data, "max_entries": "0"})
    assert bad.status_code == 422 and Tournament.objects.count() == 1
