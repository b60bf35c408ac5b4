"""Smaller things seen on a night (issue 32, items 8 and 9), each checked where it is decided:
Start asks first on another day than the event's, the desk's new-player form has one "Paid by"
control, and the README's quick start says how to serve on another port and get an API token."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from tourney.models import Tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _console(client, tournament) -> str:
    return client.get(reverse("tourney:console", args=[tournament.pk])).content.decode()


def test_start_asks_first_when_the_event_is_on_another_day(director_client, seated_tournament):
    later = timezone.now() + timedelta(days=6)
    Tournament.objects.filter(pk=seated_tournament.pk).update(scheduled_start=later)
    page = _console(director_client, seated_tournament)
    start = re.search(r'<button[^>]*id="cc-start"[^>]*>', page).group(0)
    assert "is scheduled for" in start and "not today. Start it now?" in start
    Tournament.objects.filter(pk=seated_tournament.pk).update(scheduled_start=timezone.now())
    start = re.search(
        r'<button[^>]*id="cc-start"[^>]*>', _console(director_client, seated_tournament)
    )
    assert "data-confirm" not in start.group(0)


def test_the_new_player_form_has_one_paid_by_control(director_client, tournament):
    page = director_client.get(reverse("tourney:desk", args=[tournament.pk])).content.decode()
    form = page[page.index('id="new-player-form"') :]
    form = form[: form.index("</form>")]
    assert '<select name="method"' not in form
    assert re.search(r'<input type="hidden" name="method" value="cash" id="id_method">', form)
    assert page.count('name="method" value="card" form="register-form"') == 1  # the chips above


def test_a_new_player_with_a_ticket_is_refused_in_words(director_client, tournament):
    url = reverse("tourney:desk_new_player", args=[tournament.pk])
    answer = director_client.post(url, {"name": "Új Játékos", "method": "ticket"}, follow=True)
    assert "A new player holds no ticket" in answer.content.decode()


def test_the_readme_quick_start_names_the_port_and_the_api_token():
    readme = (ROOT / "README.md").read_text()
    quick = readme[readme.index("## Run it") : readme.index("## Test it")]
    assert "--port" in quick
    assert "manage.py apitoken" in quick and "--role director" in quick
