"""The players index (search that forgives typos, sorted by the language's collation, pages)
and the merge of a duplicate player into the one kept."""

from django.contrib import messages
from django.db.models import Count, Max, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from infra.web.schema_types import INT32_MAX, whole_number
from tourney.core import roles
from tourney.models import Player
from tourney.players.selectors import player_duplicates, player_search, players_page
from tourney.players.usecases import player_merge
from tourney.registration.forms import PlayerChoiceForm
from tourney.system.pages import role_required, run_service

PAGE_SIZE = 50


def _page_number(raw: str | None) -> int:
    return whole_number(raw, INT32_MAX, least=1) or 1


@role_required("desk")
def players(request):
    query = request.GET.get("q", "").strip()[:100]
    order = "-created" if request.GET.get("order") == "-created" else "name"
    number = _page_number(request.GET.get("page"))
    rows, total = players_page(
        query, order, (number - 1) * PAGE_SIZE, PAGE_SIZE, language=get_language()
    )
    pages = max(1, -(-total // PAGE_SIZE))
    return render(
        request,
        "tourney/players.html",
        {
            "rows": rows,
            "total": total,
            "query": query,
            "order": order,
            "number": min(number, pages),
            "pages": pages,
            "can_direct": roles.can(request.user, "director"),
        },
    )


def _with_counts(queryset):
    return queryset.annotate(
        entries_count=Count("entries", filter=~Q(entries__status="unregistered"), distinct=True),
        penalties_count=Count("penalties", distinct=True),
        bans_count=Count("bans", distinct=True),
        last_played=Max("entries__created_at"),
    )


@role_required("director")
def player_merge_page(request, player_id: int):
    """Choose the player a duplicate merges into: its likely duplicates first, or any found by
    search; the merge moves everything and is undone from the toast or the kept player's page."""
    duplicate = get_object_or_404(_with_counts(Player.objects), pk=player_id)
    query = request.GET.get("q", "").strip()[:100]
    if query:
        ids = [p.pk for p in player_search(query, limit=20) if p.pk != duplicate.pk]
    else:
        ids = [
            d.player.pk
            for d in player_duplicates(
                duplicate.name, duplicate.phone, duplicate.email, exclude_id=duplicate.pk
            )
        ]
    found = _with_counts(Player.objects.filter(pk__in=ids, merged_into__isnull=True)).in_bulk()
    return render(
        request,
        "tourney/player_merge.html",
        {
            "duplicate": duplicate,
            "candidates": [found[i] for i in ids if i in found],
            "query": query,
        },
    )


@role_required("director")
@require_POST
def player_merge_do(request, player_id: int):
    form = PlayerChoiceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the player to keep."))
        return redirect("tourney:player_merge", player_id)
    into = form.cleaned_data["into"]
    kept = run_service(
        request, lambda: player_merge(actor=request.user, keep_id=into, merge_id=player_id)
    )
    if kept is None:
        return redirect("tourney:player_merge", player_id)
    duplicate = Player.objects.get(pk=player_id)
    messages.success(
        request,
        _("%(duplicate)s merged into %(name)s: entries, results, penalties and bans moved.")
        % {"duplicate": duplicate.name, "name": kept.name},
        extra_tags=f"undo:/api/v1/players/{player_id}/merge/undo",
    )
    return redirect(reverse("penalties:player", args=[kept.pk]))
