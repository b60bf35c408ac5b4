"""The championship pages' forms, with the limits of the API's SeasonIn and
TournamentSeasonIn (tourney/payouts/schemas.py); what is allowed the use cases decide."""

from django import forms

from infra.web.form_fields import IdField
from infra.web.schema_types import LEVEL_MAX
from tourney.models import Season
from tourney.payouts.schemas import PLACES_MAX, POINTS_MAX, SEASON_NAME_MAX


class PointsTableField(forms.CharField):
    """Points by place as typed: "25, 18, 15" (commas or semicolons), each 0 to POINTS_MAX."""

    def to_python(self, value) -> list[int]:
        text = super().to_python(value)
        place = forms.IntegerField(min_value=0, max_value=POINTS_MAX)
        return [place.clean(p) for p in text.replace(";", ",").split(",") if p.strip()]


class SeasonForm(forms.Form):
    name = forms.CharField(required=False, max_length=SEASON_NAME_MAX)
    points_formula = forms.ChoiceField(required=False, choices=Season.Formula.choices)
    points_table = PointsTableField(required=False, max_length=PLACES_MAX * 8)
    best_of = forms.IntegerField(required=False, min_value=1, max_value=LEVEL_MAX)

    def season_fields(self) -> dict:
        """The use case's keyword arguments (the formula defaults to linear)."""
        data = self.cleaned_data
        return {**data, "points_formula": data["points_formula"] or "linear"}


class SeasonAttachForm(forms.Form):
    tournament = IdField()
    round = forms.IntegerField(required=False, min_value=1, max_value=LEVEL_MAX)
