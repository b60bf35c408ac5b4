"""The management commands of the README: quickstart and apitoken."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.http import HttpRequest

from tourney.models import ApiToken, Entry, Tournament
from tourney.staff.usecases import token_hash

pytestmark = pytest.mark.django_db


def test_apitoken_prints_only_a_working_token(client):
    out = StringIO()
    call_command("apitoken", "scorer", "--create", "--role", "desk", stdout=out)
    token = out.getvalue().strip()
    assert "\n" not in token and token.startswith("tny_")
    assert ApiToken.objects.get(token_hash=token_hash(token)).user.username == "scorer"
    response = client.get("/api/v1/players", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200


def test_apitoken_refuses_unknown_user_without_create():
    with pytest.raises(CommandError):
        call_command("apitoken", "nobody", stdout=StringIO())


def test_quickstart_sets_up_a_demo_and_prints_login_and_urls(client, structure):
    # `structure`: the built-in template the demo copies, installed by a data migration and
    # again by the fixture (a transactional test before this one on the worker flushed it).
    out = StringIO()
    call_command("quickstart", "--no-serve", stdout=out)
    text = out.getvalue()
    password = text.split("password:")[1].split()[0]
    assert "/tournaments/" in text and "/display/" in text and "/desk/" in text
    tournament = Tournament.objects.get()
    assert tournament.house_rules == "rimoc"
    assert Entry.objects.filter(tournament=tournament, status="active").count() == 12
    # django-axes counts sign-ins per request (the login page passes its own).
    assert client.login(request=HttpRequest(), username="director", password=password)
    display_path = "/display/" + text.split("/display/")[1].split()[0]
    assert client.get(display_path).status_code == 200
    # The manual, built (or up to date) in TOURNEY_MANUAL_DIR, served at /manual/.
    assert "/manual/" in text
    assert client.get("/manual/tasks/desk/").status_code == 200
    # Running it again keeps the data and gives a new password.
    call_command("quickstart", "--no-serve", stdout=StringIO())
    assert Tournament.objects.count() == 1
    assert get_user_model().objects.filter(username="director").count() == 1
