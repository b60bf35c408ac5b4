"""The sit-and-go pages (docs/rules.md §19): the series (and a new one), and each series'
desk: a player registered into the next event in one step, the event filling seat by seat,
the countdown, the events running, the winners and the gaming day's report."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tourney.core import roles
from tourney.models import Entry, SitAndGoSeries, Tournament
from tourney.players.selectors import player_search
from tourney.players.usecases import player_create
from tourney.registration.selectors import players_playing_elsewhere
from tourney.sit_and_go.api import sng_register
from tourney.sit_and_go.forms import SeriesEntryForm, SeriesForm
from tourney.sit_and_go.selectors import (
    filling_event,
    gaming_day_in_play,
    series_board,
    series_report,
)
from tourney.sit_and_go.usecases import sng_series_create
from tourney.system.pages import role_required, run_service


def series_rows() -> list[dict]:
    """Each series (its model, for the pages' money and game) with `series_board`'s figures."""
    board = {row["id"]: row for row in series_board(None)}
    return [{**board[s.pk], "series": s} for s in SitAndGoSeries.objects.select_related("room")]


@role_required("read")
def series_list(request):
    form = SeriesForm(request.POST or None) if roles.can(request.user, "director") else None
    if request.method == "POST" and form is not None and form.is_valid():
        data = form.cleaned_data
        series = run_service(
            request,
            lambda: sng_series_create(
                actor=request.user,
                name=data["name"],
                room_id=data["room"].pk,
                structure_id=data["structure"].pk,
                starting_stack=data["starting_stack"],
                buy_in=data["buy_in"],
                fee=data["fee"],
                seats=data["seats"],
                house_rules=data["house_rules"],
                game=data["game"],
                game_limit=data["game_limit"],
                countdown_seconds=data["countdown_seconds"],
            ),
        )
        if series is not None:
            return redirect("sit_and_go:page", series.pk)
    return render(
        request,
        "tourney/sit_and_go/list.html",
        {"rows": series_rows(), "form": form},
        status=400 if form is not None and form.errors else 200,
    )


def _event_rows(series: SitAndGoSeries) -> dict:
    events = list(series.events.order_by("-pk")[:40])
    today = timezone.localdate()
    winners = {
        e.tournament_id: e
        for e in Entry.objects.filter(
            tournament__in=[t for t in events if t.status == Tournament.Status.FINISHED], place=1
        ).select_related("player")
    }
    return {
        "starting": [t for t in events if t.status == "registering" and t.auto_start_at],
        "running": [t for t in events if t.status == "running"],
        "finished": [
            (t, winners.get(t.pk))
            for t in events
            if t.status == "finished"
            and t.finished_at
            and timezone.localdate(t.finished_at) == today
        ][:10],
    }


@role_required("desk")
def series_page(request, series_id: int):
    series = get_object_or_404(SitAndGoSeries.objects.select_related("room"), pk=series_id)
    filling = filling_event(series)
    seated = {}
    if filling is not None:
        for entry in Entry.objects.filter(
            tournament=filling, status=Entry.Status.ACTIVE
        ).select_related("player"):
            seated[entry.seat] = entry
    query = " ".join(request.GET.get("q", "").split())[:120]
    found = player_search(query, limit=8) if query else []
    # One table at a time (Veszprém 002:80): a player in another running event is flagged.
    elsewhere = players_playing_elsewhere(
        [p.pk for p in found], filling or Tournament(pk=0, room_id=series.room_id)
    )
    last = Entry.objects.select_related("player", "tournament", "tournament_table").filter(
        tournament__sng_series=series, pk=request.GET.get("seated") or 0
    )
    return render(
        request,
        "tourney/sit_and_go/page.html",
        {
            "series": series,
            "filling": filling,
            "seats": [(n, seated.get(n)) for n in range(1, series.seats + 1)],
            "query": query,
            "found": [(p, elsewhere.get(p.pk)) for p in found],
            "last": last.first(),
            "report": series_report(series, gaming_day_in_play(series)),
            **_event_rows(series),
        },
    )


@role_required("desk")
@require_POST
def series_register(request, series_id: int):
    series = get_object_or_404(SitAndGoSeries, pk=series_id)
    form = SeriesEntryForm(request.POST)
    back = reverse("sit_and_go:page", args=[series.pk])
    if not form.is_valid():
        for error in form.non_field_errors() or [_("Find a player or type a new name.")]:
            messages.error(request, error)
        return redirect(back)
    data = form.cleaned_data

    def register():
        player_id = data.get("player_id")
        if not player_id:
            player_id = player_create(actor=request.user, name=data["name"]).pk
        return sng_register(request.user, series.pk, player_id, data.get("method") or "cash")

    entry = run_service(request, register)
    return redirect(f"{back}?seated={entry.pk}" if entry is not None else back)
