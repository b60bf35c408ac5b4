"""The structure pages: list, editor, duplicate, JSON import and the printable sheet."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from clocks.domain.structures import structure_payload
from clocks.models import Structure
from clocks.structures.selectors import structure_data
from clocks.structures.usecases import structure_duplicate
from tests.conftest import friday_deepstack, make_staff
from tourney.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def client_as(role: str) -> Client:
    client = Client()
    client.force_login(make_staff(f"page-{role}", role))
    return client


def test_list_marks_templates_and_floor_may_read_but_desk_may_not(director_client, structure):
    page = director_client.get("/structures/")
    assert page.status_code == 200
    html = page.content.decode()
    assert structure.name in html and "Template" in html and 'id="import-form"' in html
    floor = client_as("floor").get("/structures/")
    assert floor.status_code == 200 and 'id="import-form"' not in floor.content.decode()
    assert client_as("desk").get("/structures/").status_code == 403


def test_editor_embeds_the_structure_and_its_state(director_client, structure):
    page = director_client.get(f"/structures/{structure.pk}/")
    assert page.status_code == 200
    config = page.context["config"]
    assert config["editable"] is False  # a template
    assert config["structure"] == structure_payload(structure_data(structure))
    assert config["locked_through"] == -1
    assert 'id="duplicate-structure"' in page.content.decode()
    new = director_client.get("/structures/new/")
    assert new.status_code == 200 and new.context["config"]["id"] is None
    assert new.context["config"]["editable"] is True
    assert client_as("floor").get("/structures/new/").status_code == 403


def test_duplicate_from_a_template_opens_the_copy(director_client, structure):
    response = director_client.post(f"/structures/{structure.pk}/copy/")
    copy = Structure.objects.exclude(pk=structure.pk).get()
    assert response.status_code == 302 and response.url == f"/structures/{copy.pk}/"
    assert director_client.get(response.url).context["config"]["editable"] is True


def test_import_a_file_creates_a_structure(director_client, structure):
    exported = director_client.get(f"/api/v1/structures/{structure.pk}/export").content
    upload = SimpleUploadedFile("rimoc.json", exported, content_type="application/json")
    response = director_client.post("/structures/import/", {"file": upload})
    imported = Structure.objects.exclude(pk=structure.pk).get()
    assert response.status_code == 302 and response.url == f"/structures/{imported.pk}/"
    assert structure_payload(structure_data(imported)) == json.loads(exported)
    assert AuditEntry.objects.filter(action="structure.create").count() == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "This is not JSON"),
        ("[1, 2]", "one object"),
        ('{"name": "x"}', "levels"),
        (
            json.dumps(
                {
                    "name": "Bad",
                    "levels": [
                        {
                            "kind": "level",
                            "small_blind": 200,
                            "big_blind": 100,
                            "duration_seconds": 60,
                        }
                    ],
                }
            ),
            "Row 1: the big blind must be at least the small blind.",
        ),
    ],
)
def test_bad_imports_are_refused_with_a_clear_message(director_client, structure, text, message):
    response = director_client.post("/structures/import/", {"text": text})
    assert response.status_code == 200
    shown = [str(m) for m in response.context["messages"]]
    assert any(message in m for m in shown), shown
    assert Structure.objects.count() == 1
    assert text in response.content.decode() or "&quot;" in response.content.decode()


def test_printable_sheet_has_start_times_and_color_ups(director_client, structure):
    page = director_client.get(f"/structures/{structure.pk}/print/?start=19:00")
    assert page.status_code == 200
    rows = page.context["rows"]
    # docs/rules.md §1.8 ex. 2
    assert rows[4]["starts"] == "20:00" and rows[4]["period"].kind == "break"
    assert rows[5]["starts"] == "20:10" and rows[5]["level"] == 5
    assert page.context["end"] == "23:40"  # 16 x 15 min + 4 x 10 min = 4 h 40 min from 19:00
    html = page.content.decode()
    assert "color up" in html and "1,000" in html


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,  # nested past Python's recursion limit: json.loads raised, a 500
        " " * (256 * 1024) + "{}",  # pasted text over the upload's limit was read anyway
    ],
)
def test_a_bad_pasted_import_is_refused_and_changes_nothing(director_client, structure, text):
    response = director_client.post("/structures/import/", {"text": text})
    assert response.status_code == 200
    assert [m.level_tag for m in response.context["messages"]] == ["bad"]
    assert Structure.objects.count() == 1


def test_a_template_in_play_shows_no_later_rows_can_change_notice(
    api, director, director_client, seated_tournament, structure
):
    """Issue 32: a template played by an event showed "later rows can still change" over a
    page where nothing can change; a copy in play shows it. The lock is drawn, not an emoji."""
    # an event playing the template itself (made before events got their own copy)
    Tournament.objects.filter(pk=seated_tournament.pk).update(structure=structure)
    api.post(f"/tournaments/{seated_tournament.pk}/clock/start")
    template = director_client.get(f"/structures/{structure.pk}/")
    assert template.context["config"]["locked_through"] >= 0
    assert 'id="locked-notice"' not in template.content.decode()
    own = structure_duplicate(actor=director, structure_id=structure.pk, name="Ours")
    Tournament.objects.filter(pk=seated_tournament.pk).update(structure=own)
    page = director_client.get(f"/structures/{own.pk}/").content.decode()
    assert 'id="locked-notice"' in page
    css = (Path(__file__).resolve().parents[2] / "static" / "css" / "structures.css").read_text()
    assert "🔒" not in css


def test_a_templates_name_is_shown_in_the_readers_language(
    director, director_client, tournament, structure
):
    """Issue 32: Hungarian screens showed the template's English name."""
    director_client.cookies["django_language"] = "hu"
    page = director_client.get(f"/structures/{structure.pk}/").content.decode()
    assert "Rimóc bajnokság (15 perces szintek)" in page
    assert "Rimóc championship (15-minute levels)" not in page
    listed = director_client.get("/structures/").content.decode()
    assert f'{structure.pk}/">Rimóc bajnokság (15 perces szintek)</a>' in listed
    assert structure.name == "Rimóc championship (15-minute levels)"  # stored as installed
    # an event made in Hungarian names its copy in Hungarian
    with translation.override("hu"):
        event = friday_deepstack(director, structure, tournament.room, name="Péntek")
    assert event.structure.name == "Rimóc bajnokság (15 perces szintek) · Péntek"
