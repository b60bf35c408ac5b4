"""The audit's actor in the reader's language: a dealer link's and the system's writes showed in
English on the Hungarian console ("dealer link of table 3" in the evening's activity panel)."""

import pytest
from django.template import Context, Template
from django.utils import translation

from tourney.templatetags.audit import audit_actor


@pytest.mark.parametrize(
    ("language", "name", "shown"),
    [
        ("hu", "dealer link of table 3", "3. asztal osztólinkje"),
        ("cs", "dealer link of table 12", "odkaz dealera stolu 12"),
        ("en", "dealer link of table 3", "dealer link of table 3"),
        ("hu", "system", "rendszer (automatikus)"),
        ("cs", "system", "systém (automaticky)"),
        ("hu", "director", "director"),
        ("hu", "dealer link of table 3 and more", "dealer link of table 3 and more"),
        ("hu", "", ""),
    ],
)
def test_the_actor_reads_in_the_readers_language(language, name, shown):
    with translation.override(language):
        assert audit_actor(name) == shown


def test_the_filter_loads_in_a_template():
    with translation.override("hu"):
        text = Template("{% load audit %}{{ name|audit_actor }}").render(
            Context({"name": "dealer link of table 5"})
        )
    assert text == "5. asztal osztólinkje"


@pytest.mark.django_db
def test_the_console_activity_and_the_audit_log_name_the_dealer_link_in_hungarian(
    director_client, tournament
):
    from django.urls import reverse

    from tables.dealer_links.selectors import DealerLinkActor
    from tourney.audit.log import audit_record, audit_text

    actor = DealerLinkActor(tournament_id=tournament.pk, table=3)
    audit_record(
        actor=actor, action="hand.report", summary=audit_text("Hand"), tournament=tournament
    )
    director_client.cookies["django_language"] = "hu"
    for url in (
        reverse("tourney:console_activity", args=[tournament.pk]),
        reverse("tourney:audit_log") + f"?tournament={tournament.pk}",
    ):
        page = director_client.get(url).content.decode()
        assert "3. asztal osztólinkje" in page, url
        assert "dealer link of table" not in page, url


@pytest.mark.django_db
def test_the_audit_log_names_what_an_action_is_about_not_its_code(director_client, tournament):
    """Issue 32: the log showed `entry.eliminate`; it says "Nevezések" (entries) in Hungarian,
    keeps the code in the tooltip, and filters by the group (every entry action)."""
    import re

    from django.urls import reverse

    from infra.text.collation import sorted_by_name
    from tourney.audit.log import audit_record, audit_text

    for action in ("entry.eliminate", "entry.register", "clock.next", "mystery.thing"):
        audit_record(
            actor=None, action=action, summary=audit_text("Something"), tournament=tournament
        )
    director_client.cookies["django_language"] = "hu"
    url = reverse("tourney:audit_log")
    page = director_client.get(url).content.decode()
    cells = re.findall(r'<span class="audit-action" title="([^"]+)">([^<]+)</span>', page)
    assert ("entry.eliminate", "Nevezések") in cells
    assert ("clock.next", "Óra") in cells
    assert ("mystery.thing", "Egyéb") in cells
    options = re.findall(r'<option value="([a-z_]+\.)"[^>]*>([^<]+)</option>', page)
    assert ("entry.", "Nevezések") in options and ("clock.", "Óra") in options
    labels = [label for _v, label in options]
    assert labels == sorted_by_name(labels, language="hu")  # Hungarian order
    page = director_client.get(url + "?action=entry.").content.decode()
    shown = re.findall(r'<span class="audit-action" title="([^"]+)">', page)
    assert sorted(shown) == ["entry.eliminate", "entry.register"]
