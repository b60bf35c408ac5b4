"""The staff page (tourney/staff/views.py): users and roles, API tokens; bad input is refused
and changes nothing."""

import pytest
from django.urls import reverse

from tourney.models import ApiToken

pytestmark = pytest.mark.django_db


def test_a_token_is_made_and_revoked_from_the_staff_page(director_client, director):
    url = reverse("tourney:staff")
    page = director_client.post(url, {"new_token": str(director.pk)})
    assert page.status_code == 200 and page.context["new_token"]
    token = ApiToken.objects.get(user=director, revoked_at=None)
    director_client.post(url, {"revoke": str(token.pk)})
    token.refresh_from_db()
    assert token.revoked_at is not None


@pytest.mark.parametrize(
    "data", [{"new_token": "abc"}, {"new_token": "999999"}, {"revoke": "x"}, {"revoke": "0"}]
)
def test_bad_token_input_is_refused_and_changes_nothing(director_client, data):
    before = list(ApiToken.objects.values_list("pk", "revoked_at"))
    page = director_client.post(reverse("tourney:staff"), data, follow=True)
    assert page.status_code == 200 and not page.context["new_token"]
    assert [m.level_tag for m in page.context["messages"]] == [
        "bad"
    ]  # the project's tag for messages.ERROR
    assert list(ApiToken.objects.values_list("pk", "revoked_at")) == before
