"""The tournament settings page's form as a browser fills it."""

from django.urls import reverse
from django.utils import timezone


def form_data(client, tournament) -> dict:
    """The settings form as the page fills it (every field, as a browser posts it)."""
    page = client.get(reverse("tourney:tournament_settings", args=[tournament.pk]))
    assert page.status_code == 200
    form = page.context["form"]
    data = {}
    for field in form:
        if field.field.disabled:
            continue
        value = field.value()
        if field.widget_type == "checkbox":
            if value:
                data[field.html_name] = "on"
            continue
        data[field.html_name] = "" if value is None else str(value)
    data["scheduled_start"] = (
        timezone.localtime(tournament.scheduled_start).strftime("%Y-%m-%dT%H:%M")
        if tournament.scheduled_start
        else ""
    )
    return data
