"""The player's page (no login: the signed token in the URL is his read access), its JSON
state, its web app manifest, the service worker that keeps the last known state offline, and
the QR code of the link."""

from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from infra.text.qr import qr_svg
from tourney.models import Entry, Tournament
from tourney.player_page.links import link_ended_detail, player_link
from tourney.player_page.selectors import player_state
from tourney.player_page.strings import player_strings

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
