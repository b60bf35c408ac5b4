"""The console's "Player links" page (director): every entry's page link with its state,
revoke one (a phone lost, a link shared) and reprint its seat card for the new QR code, revoke
all of the tournament's at once, and undo the last revocation of either."""

from functools import partial

from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tourney.core.pages import role_required, run_service
from tourney.models import AuditEntry, Entry, Tournament
from tourney.player_page.links import player_link_expires_at
from tourney.player_page.usecases import (
    REVOKE_ALL,
    REVOKE_ONE,
    player_link_revoke,
    player_link_revoke_undo,
    player_links_revoke,
    player_links_revoke_undo,
)

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
