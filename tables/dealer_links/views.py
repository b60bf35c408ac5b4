"""The dealer's phone page of one table, opened from the table's signed link (no login). Its
buttons call the API with the link's token as the bearer (tables/dealer_links/permissions.py
lets it do that table's dealer actions only)."""

from urllib.parse import urlencode

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tables.dealer_links.api import dealer_link_url
from tables.dealer_links.links import dealer_actor
from tables.dealer_links.selectors import dealer_state
from tables.dealer_links.usecases import dealer_link_revoke
from tables.models import TournamentTable
from tourney.models import Tournament
from tourney.qr import qr_svg
from tourney.views_support import role_required, run_service


def _revoked_detail() -> str:
    return _("This dealer link was revoked: ask the floor for the table's new link.")


def _state(tournament, table) -> dict:
    """dealer_state with each seat's penalty as the dealer reads it ("penalty · 9 left")."""
    state = dealer_state(tournament, table)
    for seat in state["table"]["seats"]:
        left = seat["penalty_hands_left"]
        seat["penalty"] = (
            None
            if left is None
            else ngettext("penalty · %(n)s left", "penalty · %(n)s left", left) % {"n": left}
        )
    return state


def _table_for(token: str):
    actor = dealer_actor(token)
    if actor is None:
        raise Http404
    table = TournamentTable.objects.get(tournament_id=actor.tournament_id, number=actor.table)
    return actor, Tournament.objects.get(pk=actor.tournament_id), table


@never_cache
def page(request, token: str):
    actor, tournament, table = _table_for(token)
    context = {"tournament": tournament, "table": table, "revoked": actor.revoked}
    if actor.revoked:
        context["detail"] = _revoked_detail()
        return render(request, "tables/dealer_links/page.html", context, status=403)
    context["state"] = _state(tournament, table)
    context["config"] = {
        "token": token,
        "api": f"/api/v1/tournaments/{tournament.pk}",
        "state_url": reverse("dealer_links:state", args=[token]),
        "events_url": f"/api/v1/tournaments/{tournament.pk}/events?{urlencode({'dealer': token})}",
        "strings": {
            "confirm_bust": _("Bust-out: seat %(s)s, %(name)s?"),
            "done": _("Done"),
            "hand_recorded": _("Hand recorded; the button has moved."),
            "busted": _("Bust-out recorded."),
            "moved": _("Move confirmed."),
            "clock_called": _("Clock called."),
            "revoked": _revoked_detail(),
            "empty": _("empty"),
            "move_in": _("%(name)s from table %(t)s seat %(s)s → seat %(to)s"),
            "move_out": _("%(name)s from seat %(s)s → table %(t)s seat %(to)s"),
            "no_moves": _("No moves for this table."),
            "call_on": _("Call the clock on seat %(s)s"),
            "call_line": _("Seat %(s)s, %(name)s: the clock is running."),
            "call_ended": _("Clock call ended."),
        },
    }
    return render(request, "tables/dealer_links/page.html", context)


@never_cache
def state_json(request, token: str):
    actor, tournament, table = _table_for(token)
    if actor.revoked:
        return JsonResponse(
            {"code": "dealer_link_revoked", "detail": _revoked_detail()}, status=403
        )
    return JsonResponse(_state(tournament, table))


@role_required("floor")
def cards(request, tournament_id: int):
    """The console's printable dealer cards: each table's link and QR code, with a revoke
    button per table (floor, director)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    tables = TournamentTable.objects.filter(
        tournament=tournament, status=TournamentTable.Status.OPEN
    )
    rows = []
    for table in tables.order_by("number"):
        url = dealer_link_url(request, table)
        rows.append({"table": table, "url": url, "qr": mark_safe(qr_svg(url))})
    return render(
        request, "tables/dealer_links/cards.html", {"tournament": tournament, "rows": rows}
    )


@role_required("floor")
@require_POST
def revoke(request, tournament_id: int, number: int):
    run_service(
        request,
        lambda: dealer_link_revoke(actor=request.user, tournament_id=tournament_id, number=number),
        _("Dealer link of table %(t)s revoked: print the table's new card.") % {"t": number},
    )
    return redirect("dealer_links:cards", tournament_id)
