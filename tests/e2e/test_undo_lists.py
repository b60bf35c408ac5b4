"""Undo wherever an action is listed, in a real browser (issue 13 item 6): a bust-out recorded on
another device is undone from the console's finished list and from the activity panel, and
the audit log's Undo explains a refusal."""

from django.urls import reverse
from playwright.sync_api import expect

from tests.conftest import numbered_players, seat_players
from tests.e2e.conftest import open_tool
from tests.e2e.desk_steps import sign_in
from tests.factories import bust, start
from tourney.models import Entry


def test_a_bust_out_from_another_device_is_undone_on_the_console(
    page, live_server, login, director, api, tournament, screenshot
):
    ids = seat_players(api, tournament, numbered_players(6))
    start(api, tournament)
    bust(api, tournament, (ids["P5"], None))  # recorded by a dealer's phone
    sign_in(page, login, director)
    page.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    open_tool(page, "payouts")  # the places so far, under the Payouts tab
    row = page.locator(f'#payouts-finished li[data-entry="{ids["P5"]}"]')
    expect(row.locator("[data-row-undo]")).to_be_visible()
    screenshot(page, "console-finished-undo")
    row.locator("[data-row-undo]").click()
    expect(page.locator("#toasts")).to_contain_text("Undone")
    expect(page.locator(f'#payouts-finished li[data-entry="{ids["P5"]}"]')).to_have_count(0)
    assert Entry.objects.get(pk=ids["P5"]).status == "active"

    bust(api, tournament, (ids["P4"], None))
    open_tool(page, "activity")
    activity = page.locator("#activity-log")
    item = activity.locator("li", has_text="P4 eliminated").first
    expect(item.locator("[data-row-undo]")).to_be_visible()
    item.locator("[data-row-undo]").click()
    expect(page.locator("#activity-log li", has_text="P4 eliminated").first).to_contain_text(
        "Undone"
    )
    assert Entry.objects.get(pk=ids["P4"]).status == "active"
    screenshot(page, "console-activity-undo")


def test_the_audit_log_explains_a_refused_undo(page, live_server, login, director, api, tournament):
    ids = seat_players(api, tournament, numbered_players(4))
    start(api, tournament)
    bust(api, tournament, (ids["P3"], None))
    stacks = [{"entry_id": ids[n], "stack": 40_000} for n in ("P0", "P1", "P2")]
    api.post(f"/tournaments/{tournament.pk}/deals", {"method": "chip_chop", "stacks": stacks})
    sign_in(page, login, director)
    page.goto(live_server.url + reverse("tourney:audit_log") + f"?tournament={tournament.pk}")
    row = page.locator("#audit-table tr", has_text="P3 eliminated")
    row.locator("[data-row-undo]").click()
    expect(page.locator("#toasts .toast.bad")).to_contain_text("undo the deal first")
    assert Entry.objects.get(pk=ids["P3"]).status == "eliminated"
    page.locator("#audit-table tr", has_text="Deal").locator("[data-row-undo]").click()
    expect(page.locator("#toasts")).to_contain_text("Undone")
    row.locator("[data-row-undo]").click()
    expect(row).to_contain_text("Undone")
    assert Entry.objects.get(pk=ids["P3"]).status == "active"
