"""Setting a tournament up after creating it, in a real browser (issue 13 item 11): the settings
page with every house rule, the start and the cap on the home page and the desk, finished
events in their own section, the seating chart printed black on white."""

from django.urls import reverse
from playwright.sync_api import expect

from tests.conftest import seat_players
from tests.e2e.conftest import PHONE
from tests.e2e.desk_steps import sign_in
from tests.factories import TournamentFactory
from tourney.models import Tournament


def test_the_director_edits_the_tournament_and_the_desk_shows_it(
    page, live_server, login, director, tournament, screenshot
):
    TournamentFactory(
        name="Last Friday", room=tournament.room, structure=tournament.structure, finished=True
    )
    sign_in(page, login, director)
    expect(page.locator("#finished")).to_contain_text("Last Friday")
    expect(page.locator("#upcoming")).not_to_contain_text("Last Friday")
    page.locator(f'#upcoming tr[data-tournament="{tournament.pk}"] >> text=Settings').click()
    expect(page.locator("h1")).to_have_text("Tournament settings")
    # The profile's value is shown in every house rule left empty.
    expect(page.locator("#id_rule_final_table_size")).to_have_attribute("placeholder", "9")
    page.fill("#id_name", "Friday Deepstack #12")
    page.fill("#id_scheduled_start", "2031-05-02T19:00")
    page.fill("#id_max_entries", "45")
    page.fill("#id_rule_final_table_size", "8")
    page.select_option("#id_rule_dead_button", "no")
    screenshot(page, "settings-filled")
    page.click("#settings-save")
    expect(page.locator("#toasts")).to_contain_text("Settings saved.")
    expect(page.locator("#id_max_entries")).to_have_value("45")

    page.goto(live_server.url + "/")
    row = page.locator(f'#upcoming tr[data-tournament="{tournament.pk}"]')
    expect(row).to_contain_text("Friday Deepstack #12")
    expect(row.locator("[data-start]")).to_contain_text("19:00")
    expect(row.locator("[data-cap]")).to_contain_text("cap 45")
    screenshot(page, "home-sections")
    page.goto(live_server.url + reverse("tourney:desk", args=[tournament.pk]))
    expect(page.locator("[data-start]")).to_contain_text("19:00")
    expect(page.locator(".page-subtitle [data-cap]")).to_contain_text("cap 45")


def test_a_bad_rule_is_refused_with_a_message_and_nothing_changes(
    page, live_server, login, director, tournament
):
    sign_in(page, login, director)
    page.goto(live_server.url + reverse("tourney:tournament_settings", args=[tournament.pk]))
    page.fill("#id_name", "Should not be saved")
    page.fill("#id_rule_final_table_size", "40")
    page.click("#settings-save")
    expect(page.locator(".form-errors")).to_be_visible()
    expect(page.locator("#id_rule_final_table_size ~ .field-error")).to_contain_text("does not fit")
    assert Tournament.objects.get(pk=tournament.pk).name == "Friday deepstack"


def test_the_settings_page_fits_a_phone(new_page, live_server, login, director, tournament):
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    sign_in(page, login, director)
    page.goto(live_server.url + reverse("tourney:tournament_settings", args=[tournament.pk]))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    for selector in ("#settings-save", "#id_name", "#id_rule_dead_button"):
        box = page.locator(selector).bounding_box()
        assert box["height"] >= 44, selector


def test_the_seating_chart_prints_black_on_white(
    page, live_server, login, director, api, tournament, screenshot
):
    seat_players(api, tournament, ["Kovács Ádám", "Varga Ferenc", "Mészáros Éva"])
    sign_in(page, login, director)
    page.goto(live_server.url + reverse("tables:seating_chart", args=[tournament.pk]))
    page.emulate_media(media="print")
    expect(page.locator("#print-seating")).to_be_visible()
    expect(page.locator("#seating-chart")).to_be_hidden()
    expect(page.locator(".topbar")).to_be_hidden()
    colors = page.evaluate(
        """() => [...document.querySelectorAll('#print-seating, #print-seating *')]
             .filter(e => e.offsetParent !== null || e.id === 'print-seating')
             .map(e => getComputedStyle(e).color)"""
    )
    assert set(colors) == {"rgb(0, 0, 0)"}
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    visible_links = page.evaluate(
        "[...document.querySelectorAll('a, button')].filter(e => e.offsetParent !== null).length"
    )
    assert visible_links == 0
    screenshot(page, "seating-print")
