"""The favicon: /favicon.ico answers an icon (it was a 404 and a console error on every screen
of the evening production run), and every full page names its icon."""

from pathlib import Path

import pytest
from django.conf import settings


@pytest.mark.django_db
def test_favicon_ico_is_served(client):
    response = client.get("/favicon.ico", follow=True)
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert body[:4] == b"\x00\x00\x01\x00"  # an ICO header


def test_every_page_template_names_an_icon():
    pages = [
        p
        for p in Path(settings.BASE_DIR, "templates").rglob("*.html")
        if "<html" in p.read_text(encoding="utf-8")
    ]
    assert len(pages) >= 5
    missing = [str(p) for p in pages if 'rel="icon"' not in p.read_text(encoding="utf-8")]
    assert missing == []
