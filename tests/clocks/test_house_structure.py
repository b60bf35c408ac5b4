"""The house's usual structure (docs/rules.md §1.7): `level_minutes`, `break_every` and
`break_minutes` say how the house plays; the settings page tells the director where the
tournament's structure departs from it (the clock plays the structure chosen)."""

from html import unescape

import pytest
from django.urls import reverse

from clocks.domain.structures import HouseDifference, Period, house_differences

L15, L20, B10, B15 = (
    Period("level", 900, 100, 200),
    Period("level", 1200, 100, 200),
    Period("break", 600),
    Period("break", 900),
)


def test_example_a_structure_against_the_house():
    rimoc_like = [L15] * 4 + [B10] + [L15] * 4 + [B10] + [L15]
    assert house_differences(rimoc_like, 15, 4, 10) == []
    assert house_differences([L20] * 3 + [B15] + [L20], 15, 4, 10) == [
        HouseDifference("level_minutes", 15, 20),
        HouseDifference("break_every", 4, 3),
        HouseDifference("break_minutes", 10, 15),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("overrides", "says"),
    [
        ({}, None),
        ({"level_minutes": 20}, "Levels of 15 minutes; the house plays 20."),
        ({"break_every": 6}, "A break after 4 levels; the house breaks after every 6."),
        ({"break_minutes": 15}, "A break of 10 minutes; the house's are 15."),
    ],
)
def test_the_settings_page_compares_the_structure_with_the_house(
    director_client, tournament, overrides, says
):
    tournament.rules_overrides = overrides
    tournament.save(update_fields=["rules_overrides"])
    page = director_client.get(reverse("tourney:tournament_settings", args=[tournament.pk]))
    html = unescape(page.content.decode())
    assert page.status_code == 200
    assert ('id="house-structure"' in html) is (says is not None)
    if says:
        assert says in html
