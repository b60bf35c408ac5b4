"""The public page's clock: the level's end and the time left are written for the script as
plain digits (the page showed NaN:NaN: they were written as "1,765,101,234,567", the locale's
thousands separators in them), in every language."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import start
from tourney.public_page.selectors import public_token

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", ["en", "hu", "cs"])
def test_the_clock_is_written_as_plain_digits(api, seated_tournament, lang):
    start(api, seated_tournament)
    seated_tournament.refresh_from_db()
    url = reverse("public_page:page", args=[public_token(seated_tournament)])
    page = Client().get(f"{url}?lang={lang}", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    clock = r'<p class="pub-time num" data-ends-at="([^"]*)" data-remaining="([^"]*)"'
    time = re.search(clock, page)
    assert time, page[:2000]
    assert re.fullmatch(r"\d{13}", time.group(1)) and re.fullmatch(r"\d+", time.group(2))


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        ("hu-HU,hu;q=0.9,en;q=0.8", "hu"),
        ("de-DE,cs;q=0.7,en;q=0.5", "cs"),
        ("de", "en"),
        ("", "en"),
        ("hu;q=x\x00, cs;q=0.2", "cs"),
    ],
)
def test_a_link_without_its_language_opens_in_the_readers(seated_tournament, accept, lang):
    """A link given out without ?lang= opens in the reader's browser's language (a Hungarian
    friend got English); the proxy keeps a copy per language (Vary, from Django's locale
    middleware)."""
    url = reverse("public_page:page", args=[public_token(seated_tournament)])
    response = Client().get(url, HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in response.content.decode()
    assert response["Content-Language"] == lang
    assert "Accept-Language" in response["Vary"]
    # the page's own language links choose for themselves
    chosen = Client().get(f"{url}?lang=en", HTTP_ACCEPT_LANGUAGE=accept)
    assert '<html lang="en">' in chosen.content.decode()
