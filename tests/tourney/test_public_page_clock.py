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
