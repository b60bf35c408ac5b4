"""The console's "Revoke display links" (director)."""

from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clocks.services.display_links import display_links_revoke
from tourney.views_support import role_required, run_service


@role_required("director")
@require_POST
def revoke(request, tournament_id: int):
    run_service(
        request,
        lambda: display_links_revoke(actor=request.user, tournament_id=tournament_id),
        _("Display links revoked. Open the display again on each screen with the new link."),
    )
    return redirect("tourney:console", tournament_id)
