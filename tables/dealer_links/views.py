"""The dealer's phone page of one table, opened from the table's signed link (no login). Its
buttons call the API with the link's token as the bearer (tables/dealer_links/selectors.py
lets it do that table's dealer actions only)."""

from urllib.parse import urlencode

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from clocks.color_ups import views as color_up_views
from clocks.color_ups.forms import ColorUpChoiceForm
from infra.text.qr import qr_svg
from tables.dealer_links.api import dealer_link_url
from tables.dealer_links.selectors import (
    dealer_actor,
    dealer_state,
    require_color_up_at,
    require_floor_at,
)
from tables.dealer_links.usecases import dealer_link_revoke
from tables.models import TournamentTable
from tourney.cancelling.selectors import cancel_reason
from tourney.core.errors import PermissionDenied
from tourney.models import Tournament
from tourney.system.pages import role_required, run_service


def _revoked_detail() -> str:
    return _("This dealer link was revoked: ask the floor for the table's new link.")


def _events_url(tournament, token: str) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/events?{urlencode({'dealer': token})}"


# When the hand of a seat away is live (docs/rules.md §2.3, the house's `live_checkpoint`).
AWAY_RULES = {
    "initial_deal_done": lambda: _(
        "A player away is dealt in; his hand is dead unless he is in his seat when the last "
        "card of the deal is dealt."
    ),
    "first_card": lambda: _(
        "A player away is dealt in; his hand is dead unless he is in his seat when the first "
        "card is dealt."
    ),
    "first_bet_round": lambda: _(
        "A player away is dealt in; fold his cards if he is not back by the first betting round."
    ),
}


def _state(tournament, table) -> dict:
    """dealer_state with each seat's penalty as the dealer reads it ("penalty · 9 left") and a
    pending mover's arrow, as the console shows it ("leaving → T2 S5", "arriving ← T1 S3")."""
    state = dealer_state(tournament, table)
    # A finished or cancelled tournament: the page says it is over and its buttons stop (the
    # API refuses the dealer's writes then, 409).
    state["over"] = (
        _("The tournament is over.")
        if tournament.status == Tournament.Status.FINISHED
        else _("The tournament is cancelled: %(reason)s")
        % {"reason": cancel_reason(tournament) or ""}
        if tournament.status == Tournament.Status.CANCELLED
        else None
    )
    rule = state["away_rule"]
    state["away_text"] = AWAY_RULES[rule["live_checkpoint"]]() + (
        " " + str(_("In the big blind his cards stay live.")) if rule["big_blind_live"] else ""
    )
    for seat in state["table"]["seats"]:
        # The bounty on his head, as the dealer reads it (docs/rules.md §16).
        seat["bounty_text"] = (
            None
            if seat["bounty"] is None
            else _("bounty %(amount)s")
            % {"amount": number_format(seat["bounty"], force_grouping=True)}
        )
        left = seat["penalty_hands_left"]
        seat["penalty"] = (
            None
            if left is None
            else ngettext("penalty · %(n)s left", "penalty · %(n)s left", left) % {"n": left}
        )
        # A pending mover, with the console's arrow: still here, leaving; or on his way here.
        to, since = seat["leaving_to"], seat["arriving_from"]
        seat["leaving"] = _("leaving → T%(t)s S%(n)s") % {"t": to[0], "n": to[1]} if to else None
        seat["arriving"] = (
            _("arriving ← T%(t)s S%(n)s") % {"t": since[0], "n": since[1]} if since else None
        )
        # On the seat only the arrow (the words are its title): a seat three lines tall
        # overlapped its neighbour on a small table (the geometry check, 1280x720 and phones).
        seat["move_short"] = (
            _("→ T%(t)s S%(n)s") % {"t": to[0], "n": to[1]}
            if to
            else _("← T%(t)s S%(n)s") % {"t": since[0], "n": since[1]}
            if since
            else None
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
        "events_url": _events_url(tournament, token),
        "colorup_url": reverse("dealer_links:colorup", args=[token]),
        "counts_url": reverse("tourney:dealer_counts", args=[token]),
        "strings": {
            "confirm_bust": _("Bust-out: seat %(s)s, %(name)s?"),
            "confirm_bounty": _("Bust-out: seat %(s)s, %(name)s. The pot won by seat %(w)s?"),
            "pick_winner": _("Who won the pot? Tap his seat; two or more for a split pot."),
            "bust_confirm": _("Confirm the bust-out"),
            "bust": _("Bust-out"),
            "done": _("Done"),
            "hand_recorded": _("Hand recorded; the button has moved."),
            "busted": _("Bust-out recorded."),
            "busted_place": _(
                "Bust-out recorded: %(name)s, place %(place)s. The floor can undo it."
            ),
            "moved": _("Move confirmed."),
            "clock_called": _("Clock called."),
            "penalty_reason": _("Penalty for seat %(s)s, %(name)s: the reason?"),
            "penalty_given": _("Penalty recorded: the floor is told."),
            "pick_caller": _(
                "Who called the clock? Tap his seat (a player at this table), or Call the clock "
                "again if nobody says."
            ),
            "clock_minimum": _(
                "Has he had at least %(s)s seconds to act? The house allows a clock only then."
            ),
            "revoked": _revoked_detail(),
            "empty": _("empty"),
            "away": _("Away: %(seats)s."),
            "away_seat": _("seat %(s)s (%(name)s)"),
            "move_in": _("%(name)s from table %(t)s seat %(s)s → seat %(to)s"),
            "move_out": _("%(name)s from seat %(s)s → table %(t)s seat %(to)s"),
            "no_moves": _("No moves for this table."),
            "call_on": _("Call the clock on seat %(s)s"),
            "call_line": _("Seat %(s)s, %(name)s: the clock is running."),
            "call_ended": _("Clock call ended."),
            "call_act": _("Time to act"),
            "call_countdown": _("Closing countdown"),
            "call_up": _("Time is up"),
            "colorup_open": _("This table colors up now: tap here."),
            "colorup_dealt": _("The race is dealt: confirm it."),
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


# --- the table's color-up by the link ---------------------------------------------------------
# The color-up page and its writes are clocks/color_ups/views.py's, with the link as the actor;
# the link is checked as the API checks it (tables/dealer_links/selectors.py): its own table
# only, never once revoked, 403 and nothing done otherwise.


def _refused(request, tournament, table, exc: PermissionDenied) -> HttpResponse:
    """A refused link: a page saying why (the phone's GET), `{code, detail}` (a form's POST)."""
    if request.method == "POST":
        return JsonResponse({"code": exc.code, "detail": exc.detail}, status=403)
    context = {"tournament": tournament, "table": table, "revoked": True, "detail": exc.detail}
    return render(request, "tables/dealer_links/page.html", context, status=403)


def _colorup_face(token: str, actor, tournament) -> color_up_views.Face:
    back = reverse("dealer_links:page", args=[token])
    urls = color_up_views.page_urls("dealer_links", [token])
    urls |= {"dealer": back, "events": _events_url(tournament, token)}
    return color_up_views.Face(
        actor=actor, can_floor=True, can_direct=False, urls=urls, done_url=back
    )


def _colorup_view(view, check_color_up: bool = False):
    """`view(request, tournament_id, number, face)` of the color-up page, behind the link."""

    @never_cache
    def by_link(request, token: str):
        actor, tournament, table = _table_for(token)
        try:
            require_floor_at(actor, tournament.pk, table.number)
            if check_color_up:  # the color-up named in the form is this table's
                form = ColorUpChoiceForm(request.POST)
                if form.is_valid() and form.cleaned_data["color_up"]:
                    require_color_up_at(actor, tournament.pk, form.cleaned_data["color_up"])
        except PermissionDenied as exc:
            return _refused(request, tournament, table, exc)
        return view(request, tournament.pk, table.number, _colorup_face(token, actor, tournament))

    return by_link


colorup = _colorup_view(color_up_views.page)
colorup_live = require_GET(_colorup_view(color_up_views.live))
colorup_preview = require_POST(_colorup_view(color_up_views.preview))
colorup_run = require_POST(_colorup_view(color_up_views.run))
colorup_confirm = require_POST(_colorup_view(color_up_views.confirm, check_color_up=True))
colorup_found = require_POST(_colorup_view(color_up_views.found, check_color_up=True))
