"""Penalty pages: the console's "Sitting out" panel and penalty form, the same form for a seat
on the dealer page (floor role), and the player page with penalties, bans and entries across
tournaments.

Thin like tables/floor/views.py: forms posted by htmx answer 204/422 with the floor's
`HX-Trigger: floor:done` toasts (static/js/floor.js shows them and refreshes the panels).
"""

from datetime import UTC, datetime, timedelta

from django.db.models import Count, F
from django.http import HttpRequest
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from infra.text.collation import sorted_by_name
from infra.web.page_answers import answer, refused, toast
from infra.web.schema_types import whole_number
from tables.floor.views import TABLE_SEAT
from tables.seating.selectors import at_table
from tourney.core import roles
from tourney.core.errors import TourneyError
from tourney.models import Entry, Penalty, Player, Season, Tournament
from tourney.penalties.forms import (
    BanAddForm,
    BanLiftForm,
    PenaltyChoiceForm,
    PenaltyGiveForm,
)
from tourney.penalties.selectors import penalties_list, penalties_sitting_out, player_penalties
from tourney.penalties.usecases import penalty_end, penalty_give, penalty_undo
from tourney.players.selectors import player_bans
from tourney.players.usecases import player_ban, player_ban_lift
from tourney.system.pages import role_required
from tourney.tickets.selectors import ticket_targets, tickets_of_player
from tourney.tournaments.selectors import tournament_rules

SEARCH_LIMIT = 8


def _when(ms: int | None) -> datetime | None:
    return datetime.fromtimestamp(ms / 1000, tz=UTC) if ms else None


def _decorate(rows: list[dict]) -> list[dict]:
    """Datetimes for the templates' `|time` (the rows carry epoch milliseconds)."""
    for row in rows:
        row["ends_at"] = _when(row["ends_at_ms"])
        row["given_at"] = _when(row["given_at_ms"])
        if row["ban"]:
            row["ban"]["ends_at"] = _when(row["ban"]["ends_at_ms"])
    return rows


def _urls(tournament: Tournament) -> dict:
    args = [tournament.pk]
    return {
        name: reverse(f"penalties:{name}", args=args)
        for name in ("panel", "search", "history", "give", "undo", "end")
    }


def penalty_panel_context(request: HttpRequest, tournament: Tournament) -> dict:
    rules = tournament_rules(tournament)
    recent = [r for r in penalties_list(tournament) if r["status"] != "serving"][:8]
    return {
        "tournament": tournament,
        "sitting_out": _decorate(penalties_sitting_out(tournament)),
        "recent_penalties": _decorate(recent),
        "can_floor": roles.can(request.user, "floor"),
        "penalty_urls": _urls(tournament),
        "rounds_max": rules.penalty_rounds_max,
        "fixed_hands": rules.fixed_hands,
        "has_season": tournament.season_id is not None,
        "page_url": reverse("tourney:console", args=[tournament.pk]),
    }


@role_required("read")
@require_GET
def panel(request, tournament_id: int):
    """The console's "Sitting out" panel (refetched on penalty, hand and seating events)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(
        request, "tourney/_penalties_panel.html", penalty_panel_context(request, tournament)
    )


@role_required("floor")
@require_GET
def form(request, tournament_id: int):
    """The penalty form: search by name on the console; `?table=N` lists that table's seats
    (the dealer page)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = penalty_panel_context(request, tournament)
    table = whole_number(request.GET.get("table"))
    context["players"] = []
    if table is not None:
        context["players"] = list(
            Entry.objects.filter(
                tournament=tournament,
                status=Entry.Status.ACTIVE,
                seat_row__tournament_table__tournament=tournament,
                seat_row__tournament_table__number=table,
                seat_row__tournament_table__status="open",
            )
            .order_by("seat")
            .values("seat", entry_id=F("pk"), player_name=F("player__name"))
        )
        context["page_url"] = reverse("tables:dealer", args=[tournament.pk, table])
    return render(request, "tourney/_penalty_form.html", context)


@role_required("floor")
@require_GET
def search(request, tournament_id: int):
    """Playing entries by name, or "table seat" ("5 3", "T5 S3"), for the penalty form."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    query = request.GET.get("q", "").strip()
    rows = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).select_related(
        "player", "tournament_table"
    )
    by_seat = TABLE_SEAT.match(query)
    if not query:
        found = []
    elif by_seat:
        table, seat = (int(g) for g in by_seat.groups())
        found = list(rows.filter(at_table(tournament, table), seat=seat)[:1])
    else:
        found = sorted_by_name(  # the language's collation (Mészáros before Molnár)
            rows.filter(player__name__icontains=query), key=lambda e: e.player.name
        )[:SEARCH_LIMIT]
    # Players at each table, the offender included: the preview of rounds x players.
    players_at = dict(
        Entry.objects.filter(
            tournament=tournament,
            status=Entry.Status.ACTIVE,
            seat_row__tournament_table_id__in={e.tournament_table_id for e in found},
        )
        .values("tournament_table_id")
        .annotate(n=Count("pk"))
        .values_list("tournament_table_id", "n")
    )
    for entry in found:
        entry.table_players = players_at.get(entry.tournament_table_id)
    return render(
        request,
        "tourney/_penalty_results.html",
        {"tournament": tournament, "query": query, "results": found},
    )


@role_required("floor")
@require_GET
def history(request, tournament_id: int):
    """The chosen player's earlier penalties and bans, shown before the floor confirms
    (repeat offences escalate, TDA 71)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entry_id = whole_number(request.GET.get("entry"))
    entry = get_object_or_404(
        Entry.objects.select_related("player", "tournament_table"),
        tournament=tournament,
        pk=entry_id or 0,
    )
    return render(
        request,
        "tourney/_penalty_history.html",
        {
            "entry": entry,
            "penalties": _decorate(player_penalties(entry.player)),
            "bans": player_bans(entry.player),
            "player_url": reverse("penalties:player", args=[entry.player_id]),
        },
    )


def _give_text(row: dict) -> str:
    name = row["player_name"]
    if row["kind"] == Penalty.Kind.WARNING:
        return _("Warning recorded for %(name)s.") % {"name": name}
    if row["kind"] == Penalty.Kind.DISQUALIFICATION:
        return _("%(name)s is disqualified; %(chips)s chips out of play.") % {
            "name": name,
            "chips": number_format(row["chips_removed"], force_grouping=True),
        }
    return _("%(name)s sits out %(hands)s hands, from the end of this hand.") % {
        "name": name,
        "hands": row["hands"],
    }


def _first_error(form) -> str:
    """The first refusal of a form, in its fields' order."""
    return next(iter(form.errors.values()))[0]


@role_required("floor")
@require_POST
def give(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = PenaltyGiveForm(request.POST)
    valid = form.is_valid()
    # A plain form goes back to its `next` when that is on this site (page_answers.back_url).
    fallback = reverse("tourney:console", args=[tournament.pk])
    if not valid:
        return refused(request, _first_error(form), fallback)
    data = form.cleaned_data
    kind, count, dq = data["kind"], data["count"], data["kind"] == Penalty.Kind.DISQUALIFICATION
    try:
        result = penalty_give(
            actor=request.user,
            tournament_id=tournament.pk,
            entry_id=data["entry"],
            kind=kind,
            reason=data["reason"],
            rounds=count if kind == Penalty.Kind.MISSED_ROUNDS else None,
            hands=count if kind == Penalty.Kind.MISSED_HANDS else None,
            chips=data["chips"] if dq else None,
            ban=(data["ban"] or None) if dq else None,
            ban_days=data["ban_days"],
        )
    except TourneyError as exc:
        return refused(request, exc.detail, fallback)
    row = result["penalty"]
    undo = reverse("api:penalty_undo", args=[tournament.pk, row["id"]])
    toasts = [toast(_give_text(row), "warn", undo)]
    if result["actions"]:
        toasts.append(toast(_("The floor has new things to do: see the list."), "warn"))
    return answer(request, toasts, ok=True, fallback=fallback)


def _penalty_action(service, text):
    @role_required("floor")
    @require_POST
    def view(request, tournament_id: int):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        form = PenaltyChoiceForm(request.POST)
        valid = form.is_valid()
        fallback = reverse("tourney:console", args=[tournament.pk])
        if not valid:
            return refused(request, _first_error(form), fallback)
        try:
            result = service(
                actor=request.user,
                tournament_id=tournament.pk,
                penalty_id=form.cleaned_data["penalty"],
            )
        except TourneyError as exc:
            return refused(request, exc.detail, fallback)
        message = text() % {"name": result["penalty"]["player_name"]}
        return answer(request, [toast(message, "ok")], ok=True, fallback=fallback)

    return view


undo = _penalty_action(penalty_undo, lambda: _("Penalty of %(name)s undone."))
end = _penalty_action(penalty_end, lambda: _("%(name)s is back in play."))


# --- the player page ------------------------------------------------------------------------


@role_required("read")
def player(request, player_id: int):
    """A player across tournaments: penalties, bans (lift, add) and entries."""
    player = get_object_or_404(Player, pk=player_id)
    entries = (
        Entry.objects.filter(player=player)
        .select_related("tournament", "tournament_table")
        .order_by("-created_at")[:100]
    )
    return render(
        request,
        "tourney/player.html",
        {
            "player": player,
            "penalties": _decorate(player_penalties(player)),
            "bans": player_bans(player),
            "entries": entries,
            "seasons": Season.objects.all()[:50],
            "can_direct": roles.can(request.user, "director"),
            "now": timezone.now(),
            "merged": list(player.merged.order_by("-merged_at")),
            "tickets": tickets_of_player(player.pk),  # seats won in satellites (§17.4)
            "can_desk": roles.can(request.user, "desk"),
            "transfer_targets": ticket_targets(),
        },
    )


@role_required("director")
@require_POST
def player_ban_add(request, player_id: int):
    fallback = reverse("penalties:player", args=[player_id])
    form = BanAddForm(request.POST)
    if not form.is_valid():
        return refused(request, _first_error(form), fallback)
    days = form.cleaned_data["days"]
    ends_at = timezone.now() + timedelta(days=days) if days else None
    try:
        player_ban(
            actor=request.user,
            player_id=player_id,
            reason=form.cleaned_data["reason"],
            ends_at=ends_at,
            season_id=form.cleaned_data["season"],
        )
    except TourneyError as exc:
        return refused(request, exc.detail, fallback)
    return answer(request, [toast(_("Ban recorded."), "ok")], ok=True, fallback=fallback)


@role_required("director")
@require_POST
def player_ban_remove(request, player_id: int):
    fallback = reverse("penalties:player", args=[player_id])
    form = BanLiftForm(request.POST)
    if not form.is_valid():
        return refused(request, _first_error(form), fallback)
    ban_id = form.cleaned_data["ban"]
    try:
        player_ban_lift(actor=request.user, ban_id=ban_id or 0, player_id=player_id)
    except TourneyError as exc:
        return refused(request, exc.detail, fallback)
    return answer(request, [toast(_("Ban lifted."), "ok")], ok=True, fallback=fallback)
