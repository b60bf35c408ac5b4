"""The player's page (no login: the signed token in the URL is his read access), its JSON
state, its web app manifest, the service worker that keeps the last known state offline, and
the QR code of the link."""

from functools import partial
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from infra.text.qr import qr_svg
from tourney.models import AuditEntry, Entry, Tournament
from tourney.player_page.selectors import (
    link_ended_detail,
    player_link,
    player_link_expires_at,
    player_state,
)
from tourney.player_page.usecases import (
    REVOKE_ALL,
    REVOKE_ONE,
    player_link_revoke,
    player_link_revoke_undo,
    player_links_revoke,
    player_links_revoke_undo,
)
from tourney.system.pages import role_required, run_service

SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "player-sw.js"


class LinkEnded(Exception):
    """A revoked or expired link: its page says which, its JSON is `{code, detail}` (403)."""

    def __init__(self, code: str, detail: str):
        self.code, self.detail = code, detail


def _entry_for(token: str) -> tuple[Tournament, Entry]:
    link = player_link(token)
    if link is None:
        raise Http404
    if not link.ok:
        raise LinkEnded(*link_ended_detail(link.status))
    tournament = Tournament.objects.select_related("structure", "room").get(pk=link.tournament_id)
    entry = Entry.objects.select_related("player", "tournament_table").get(pk=link.entry_id)
    return tournament, entry


def _ended_json(ended: LinkEnded) -> JsonResponse:
    return JsonResponse({"code": ended.code, "detail": ended.detail}, status=403)


@never_cache
def page(request, token: str):
    try:
        tournament, entry = _entry_for(token)
    except LinkEnded as ended:
        response = render(
            request,
            "tourney/player_page/ended.html",
            {"code": ended.code, "detail": ended.detail},
            status=403,
        )
        response["Referrer-Policy"] = "no-referrer"
        return response
    state = player_state(tournament, entry)
    config = {
        "state_url": reverse("player_page:state", args=[token]),
        "events_url": f"/api/v1/tournaments/{tournament.pk}/events?{urlencode({'player': token})}",
        "sw_url": reverse("player_page:service_worker"),
        "lang": get_language(),
        "strings": player_strings(),
    }
    response = render(
        request,
        "tourney/player_page/page.html",
        {
            "tournament": tournament,
            "state": state,
            "config": config,
            "manifest_url": reverse("player_page:manifest", args=[token]),
        },
    )
    response["Referrer-Policy"] = "no-referrer"  # the token is the page's key
    return response


@never_cache
def state_json(request, token: str):
    try:
        tournament, entry = _entry_for(token)
    except LinkEnded as ended:
        return _ended_json(ended)
    return JsonResponse(player_state(tournament, entry))


def manifest(request, token: str):
    """The web app manifest: installed, the page opens on this player's own link."""
    try:
        tournament, entry = _entry_for(token)
    except LinkEnded as ended:
        return _ended_json(ended)
    start = reverse("player_page:page", args=[token])
    data = {
        "name": f"{tournament.name} · {entry.player.name}",
        "short_name": _("My seat"),
        "start_url": start,
        "scope": start,
        "display": "standalone",
        "background_color": "#0f141c",
        "theme_color": "#0f141c",
        "lang": get_language(),
        "icons": [
            {
                "src": settings.STATIC_URL + "img/player-icon.svg",
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "any",
            }
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


def service_worker(request):
    """Served from /p/ so that its scope covers every player's page."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="application/javascript")
    response["Cache-Control"] = "no-cache"
    return response


def qr(request, token: str):
    """The QR code of the player's link, as SVG (printed on the seat card and the receipt)."""
    try:
        _entry_for(token)
    except LinkEnded as ended:
        return _ended_json(ended)
    url = request.build_absolute_uri(reverse("player_page:page", args=[token]))
    return HttpResponse(qr_svg(url), content_type="image/svg+xml")


def player_strings() -> dict[str, str]:
    return {
        "level": _("Level %(n)s"),
        "break": _("Break"),
        "paused": _("Paused"),
        "pending": _("Starts soon"),
        "finished": _("Finished"),
        "day_over": _("The day is over"),
        "blinds": _("Blinds"),
        "ante": _("Ante"),
        "next": _("Next: %(what)s"),
        "next_break": _("Break in %(time)s"),
        "stack_rank": _("Chip rank %(rank)s of %(of)s"),
        "stack_bb": _("%(n)s big blinds"),
        "stack_bagged": _("Bagged for Day 2"),
        "stack_day2_seat": _("Day 2: table %(t)s, seat %(s)s"),
        "bounty_won": _("Bounties won: %(amount)s"),
        "no_break": _("No more breaks"),
        "table_seat": _("Table %(t)s · Seat %(s)s"),
        "moved_title": _("You have been moved"),
        "moved_body": _("Go to table %(t)s, seat %(s)s. Take your chips with you."),
        "move_coming": _("The floor will move you to table %(t)s, seat %(s)s."),
        "notify_title": _("New seat: table %(t)s, seat %(s)s"),
        "ok": _("OK"),
        "offline": _("Offline: showing the last known state"),
        "place": _("Place %(p)s"),
        "places": _("Places %(p)s–%(to)s"),
        "prize": _("Prize: %(amount)s"),
        "no_prize": _("No prize this time. Thank you for playing."),
        "collect": _(
            "Collect your prize at the cage (the registration desk) with this page or your "
            "receipt, before you leave the room."
        ),
        "collected": _("Paid at the cage. Thank you for playing."),
        "out_title": _("Your tournament is over"),
        "winner_title": _("You won the tournament"),
        "waiting": _("Waiting list: you will be called when a seat opens."),
        "not_drawn": _("Your seat is drawn before the start."),
        "unregistered": _("This entry was cancelled."),
        "cancelled_back": _("You get %(amount)s back at the registration desk."),
        "cancelled_settled": _("Paid back at the cage: %(amount)s."),
        "cancelled_nothing": _("You paid %(paid)s; the settlement gives nothing back to you."),
        "entry": _("Entry"),
        "rebuy": _("Rebuy"),
        "addon": _("Add-on"),
        "prize_receipt": _("Prize"),
        "refund": _("Refund · %(what)s"),
        "seat_free": _("free"),
        "seat_taken": _("taken"),
        "seat_mine": _("your seat"),
        "button": _("button"),
    }


FIELD = "player_link_generation"


def _undoable(action: str, target_type: str, current: dict[int, int]) -> set[int]:
    """Targets whose last revocation is still in force (its undo can be pressed)."""
    last: dict[int, int | None] = {}
    rows = AuditEntry.objects.filter(
        action=action, target_type=target_type, target_id__in=list(current)
    ).order_by("pk")
    for target_id, after in rows.values_list("target_id", "after"):
        last[target_id] = (after or {}).get(FIELD)
    return {t for t, g in last.items() if g is not None and g == current.get(t)}


@role_required("director")
def links(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.Status.UNREGISTERED)
        .select_related("player", "tournament_table")
        .order_by("number")
    )
    undo_one = _undoable(REVOKE_ONE, "entry", {e.pk: e.player_link_generation for e in entries})
    undo_all = _undoable(
        REVOKE_ALL, "tournament", {tournament.pk: tournament.player_link_generation}
    )
    for entry in entries:
        entry.link_undo = entry.pk in undo_one
        # Revoked with all the others: the row says so too (it said "Seat card link").
        entry.link_revoked = entry.link_undo or bool(undo_all)
        entry.link_reissued = entry.player_link_generation or tournament.player_link_generation
    return render(
        request,
        "tourney/player_page/links.html",
        {
            "tournament": tournament,
            "entries": entries,
            "undo_all": bool(undo_all),
            "expires_at": player_link_expires_at(tournament.finished_at),
        },
    )


def _act(request, tournament_id: int, action, success: str):
    run_service(request, lambda: action(actor=request.user, tournament_id=tournament_id), success)
    return redirect("player_page:links", tournament_id)


@role_required("director")
@require_POST
def revoke_all(request, tournament_id: int):
    done = _(
        "Every player link revoked. Seat cards and receipts printed from now on carry the new ones."
    )
    return _act(request, tournament_id, player_links_revoke, done)


@role_required("director")
@require_POST
def revoke_all_undo(request, tournament_id: int):
    done = _("The player links work again.")
    return _act(request, tournament_id, player_links_revoke_undo, done)


@role_required("director")
@require_POST
def revoke_one(request, tournament_id: int, entry_id: int):
    done = _("Player link revoked. Reprint the seat card or receipt: it carries the new link.")
    return _act(request, tournament_id, partial(player_link_revoke, entry_id=entry_id), done)


@role_required("director")
@require_POST
def revoke_one_undo(request, tournament_id: int, entry_id: int):
    done = _("The player link works again.")
    return _act(request, tournament_id, partial(player_link_revoke_undo, entry_id=entry_id), done)
