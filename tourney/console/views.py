"""The director's console: the page, its clock box, the summary and activity parts, the
draw and start buttons."""

import time

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clocks.clock.selectors import clock_view, structure_periods
from clocks.clock.usecases import tournament_start
from clocks.display.selectors import display_periods, display_token
from infra.text.collation import sorted_by_name
from tables.floor.views import floor_console_context
from tables.seating.usecases import seats_draw
from tourney.absence.selectors import bubble_check, out_after_level
from tourney.audit.selectors import undo_links
from tourney.backups.selectors import backup_last
from tourney.bounties.selectors import unclaimed_count
from tourney.cancelling.views import cancel_panel
from tourney.chip_counts.views import festival_console_context
from tourney.core import roles
from tourney.domain.house_rules_profiles import PROFILES
from tourney.models import AuditEntry, Entry, Tournament
from tourney.registration.views import duration_text
from tourney.system.pages import role_required, run_service
from tourney.tournaments.selectors import tournament_rules, tournament_summary


def _end_strings() -> dict:
    """The console's words at the structure's end (docs/rules.md §1.4)."""
    return {
        "overtime": _("Past the last level"),
        "lastLevelNote": _(
            "This is the structure's last level. When its time is up, play goes on at it until "
            "the tournament has its winner; add levels to carry the structure on."
        ),
        "overtimeNote": _(
            "The structure has run out: play goes on at its last level until the tournament has "
            "its winner. Add levels to carry the structure on (the clock goes on into them)."
        ),
    }


def _console_clock(request, tournament: Tournament) -> dict:
    """The clock strip: the clock as now, the periods, and what this user may press."""
    clock = clock_view(tournament)
    if tournament.status == Tournament.Status.FINISHED:  # the winner is known: no clock runs
        clock = {**clock, "status": "finished", "remaining_ms": 0, "time_to_next_break_ms": None}
    # Finished or cancelled: the controls stay in place, disabled (the API refuses them, 409
    # `tournament_over`, docs/rules.md §1.4).
    over = tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    return {
        "over": _("The tournament is over.") if over else None,
        "clock": clock,
        "periods": display_periods(structure_periods(tournament.structure_id)),
        "remaining": duration_text(clock["remaining_ms"]),
        "to_break": duration_text(clock["time_to_next_break_ms"]),
        "last_minute": clock["status"] in ("running", "paused") and clock["remaining_ms"] <= 60_000,
        "can_direct": roles.can(request.user, "director"),
        "can_pause": roles.can(request.user, "floor"),
        "ready": tournament.seats_drawn_at is not None,
        "start_warning": _start_warning(tournament, clock),
        "at_end": not over
        and clock["next_period"] is None
        and clock["status"] in ("running", "paused", "overtime"),
        "strings": _end_strings(),
    }


def _start_warning(tournament: Tournament, clock: dict) -> str | None:
    """The question Start asks when the event is scheduled for another day (issue 32: an
    event was started six days before its date with no word)."""
    if clock["status"] != "pending" or tournament.scheduled_start is None:
        return None
    local = timezone.localtime(tournament.scheduled_start)
    if local.date() == timezone.localdate():
        return None
    return _("This tournament is scheduled for %(date)s %(time)s, not today. Start it now?") % {
        "date": date_format(local, "DATE_FORMAT"),
        "time": local.strftime("%H:%M"),
    }


def _absence(tournament: Tournament) -> dict | None:
    """Absent players for the console (docs/rules.md §2.3): who is marked absent, who could be."""
    live = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)
    if tournament.seats_drawn_at is None or tournament.status not in live:
        return None
    rules = tournament_rules(tournament)
    seated = sorted_by_name(
        Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ACTIVE, tournament_table__isnull=False
        ).select_related("player", "tournament_table"),
        key=lambda entry: entry.player.name,
    )
    absent = [e for e in seated if e.absent_since is not None]
    for entry in absent:  # his own wait (docs/rules.md §2.3)
        entry.out_after_level = out_after_level(tournament, entry)
    return {
        "eliminates": rules.absent_policy == "eliminate",
        "level": rules.absent_eliminate_after_levels,
        "absent": absent,
        "present": [e for e in seated if e.absent_since is None],
        # Doyle #5: on the bubble the floor says who is away (no prize if still away).
        "bubble_check": bubble_check(tournament),
    }


@role_required("read")
def console(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = {
        "clock_panel": _console_clock(request, tournament),
        "console_strings": {
            "running": _("Running"),
            "paused": _("PAUSED"),
            "lastMinute": _("Last minute"),
            "finished": _("Finished"),
            "pending": _("Not started"),
            "level": _("Level"),
            # "Level 3" in the language's word order (Hungarian "3. szint", not "Szint 3").
            "levelN": _("Level %(level)s"),
            "break": _("Break"),
            "ante": _("ante"),
            "start": _("Clock started"),
            "pause": _("Clock paused"),
            "resume": _("Clock resumed"),
            "next": _("Next level"),
            "previous": _("Previous level"),
            "adjust": _("Clock adjusted"),
            "jump": _("Clock moved"),
            "undo": _("Last clock change undone"),
            "message": _("Message shown on the screens"),
            "messageCleared": _("Message cleared"),
            **_end_strings(),
        },
        "absence": _absence(tournament),
        "can_floor": roles.can(request.user, "floor"),
        "tournament": tournament,
        "summary": tournament_summary(tournament),
        "house_rules_name": getattr(PROFILES.get(tournament.house_rules), "name", "")
        or tournament.house_rules,
        "activity": console_activity_rows(request, tournament),
        "display_url": reverse(
            "clocks:display",
            args=[display_token(tournament.pk, tournament.display_link_generation)],
        ),
        "can_direct": roles.can(request.user, "director"),
    }
    if context["can_direct"]:
        context["backup"] = backup_last(int(time.time()))
    context["festival"] = festival_console_context(request, tournament)
    context["bounties_unclaimed"] = unclaimed_count(tournament)
    context["cancel"] = cancel_panel(request, tournament)
    summary = context["summary"]
    context["can_add_flights"] = (
        context["can_direct"]
        and context["festival"] is None
        and tournament.status == Tournament.Status.REGISTERING
        and summary.entries + summary.waiting == 0
    )
    # The floor's panels: to-do list, quick bust-out, hand-for-hand, clock calls, halted tables.
    context.update(floor_console_context(request, tournament))
    return render(request, "tourney/console.html", context)


@role_required("director")
@require_POST
def draw(request, tournament_id: int):
    run_service(
        request,
        lambda: seats_draw(actor=request.user, tournament_id=tournament_id),
        _("Seats drawn. Announce the button cards at each table."),
    )
    return redirect("tourney:console", tournament_id)


@role_required("director")
@require_POST
def start(request, tournament_id: int):
    run_service(
        request,
        lambda: tournament_start(actor=request.user, tournament_id=tournament_id),
        _("Tournament started: shuffle up and deal."),
    )
    return redirect("tourney:console", tournament_id)


@role_required("read")
def console_summary(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = {"tournament": tournament, "summary": tournament_summary(tournament)}
    return render(request, "tourney/_summary_stats.html", context)


def console_activity_rows(request: HttpRequest, tournament: Tournament) -> list[AuditEntry]:
    """The latest 15 actions, each with the undo this user may press."""
    latest = AuditEntry.objects.filter(tournament=tournament).select_related("actor")[:15]
    return undo_links(latest, request.user)


@role_required("read")
def console_activity(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = {
        "tournament": tournament,
        "activity": console_activity_rows(request, tournament),
        "can_direct": roles.can(request.user, "director"),
    }
    return render(request, "tourney/_activity.html", context)
