"""The bounties page (docs/rules.md §16): the bounty on every head and what each player has
won, and the bust-outs whose pot's winners are still to be named, each with the players of
its table to tick."""

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from infra.text.collation import sorted_by_name
from infra.web.page_answers import answer, refused, toast
from tourney.bounties.forms import WinnersForm
from tourney.bounties.selectors import bounties_list, bounty_of, mystery_state, unclaimed_busts
from tourney.bounties.usecases import bounty_winners_name
from tourney.core import roles
from tourney.core.errors import TourneyError
from tourney.models import Entry, Tournament
from tourney.system.pages import role_required
from tourney.tournaments.selectors import tournament_summary


def _unclaimed(tournament: Tournament) -> list[dict]:
    """The standing bust-outs with no winner named, the latest first, each with the players
    now at its table (all the players left when nobody is)."""
    rows = unclaimed_busts(tournament).select_related("entry__player").order_by("-pk")
    playing = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).values_list(
            "pk", "player__name", "tournament_table__number", "seat"
        )
    )
    out = []
    for row in rows:
        here = [p for p in playing if p[2] == row.table_number] or sorted_by_name(
            playing, key=lambda p: p[1]
        )
        out.append(
            {
                "entry_id": row.entry_id,
                "player_name": row.entry.player.name,
                "table": row.table_number,
                "seat": row.seat,
                "place": row.place,
                "candidates": [
                    {"entry_id": pk, "player_name": name, "table": table, "seat": seat}
                    for pk, name, table, seat in sorted(here, key=lambda p: (p[2] or 0, p[3] or 0))
                ],
            }
        )
    return out


@role_required("read")
def page(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    summary = tournament_summary(tournament)
    context = {
        "tournament": tournament,
        "bounty": bounty_of(tournament),
        "pool": summary.bounty_pool,
        "prize_pool": summary.prize_pool,
        "rows": bounties_list(tournament),
        "unclaimed": _unclaimed(tournament),
        "mystery": mystery_state(tournament),
        "can_floor": roles.can(request.user, "floor"),
    }
    return render(request, "tourney/bounties/page.html", context)


@role_required("floor")
@require_POST
def winners(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fallback = reverse("bounties:page", args=[tournament.pk])
    form = WinnersForm(request.POST)
    if not form.is_valid():
        return refused(request, next(iter(form.errors.values()))[0], fallback)
    try:
        bounty_winners_name(
            actor=request.user,
            tournament_id=tournament.pk,
            entry_id=form.cleaned_data["entry"],
            winners=form.cleaned_data["won_by"],
        )
    except TourneyError as exc:
        return refused(request, exc.detail, fallback)
    return answer(request, [toast(_("The pot's winners are named."), "ok")], True, fallback)
