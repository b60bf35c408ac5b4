"""Chip-count pages: a table's count sheet (the floor's phone, the dealer link), the count
list and the bag slips (print), and the festival's console buttons (docs/rules.md §15)."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clocks.clock.selectors import clock_view
from infra.web.schema_types import CHIPS_MAX, LEVEL_MAX, whole_number
from tables.dealer_links.selectors import dealer_actor, require_busts_at
from tables.models import TournamentTable
from tourney.chip_counts.selectors import (
    chip_leaderboard,
    counted_entries,
    counts_check,
    table_sheet,
)
from tourney.chip_counts.usecases import chip_counts_set
from tourney.core import roles
from tourney.core.errors import TourneyError
from tourney.domain.festival import day_end_state
from tourney.flights.selectors import flight_rows
from tourney.flights.usecases import day2_draw, flight_create, flight_day_end
from tourney.models import Entry, Tournament
from tourney.public_page.selectors import public_token
from tourney.public_page.usecases import public_link_revoke
from tourney.system.pages import role_required, run_service


def _counts_posted(request: HttpRequest, sheet: list[dict]) -> tuple[list, list[str]]:
    """The counts typed on a sheet ("125 000", "125,000"), and the seats whose entry is not
    a count. An empty field is no count."""
    counts, bad = [], []
    for row in sheet:
        raw = (request.POST.get(f"chips-{row['entry_id']}") or "").strip()
        if not raw:
            continue
        chips = whole_number(raw, most=CHIPS_MAX, least=1)
        if chips is None:
            bad.append(str(row["seat"]))
        else:
            counts.append((row["entry_id"], chips))
    return counts, bad


def _sheet(request, tournament: Tournament, number: int, actor, back: str, dealer: bool):
    sheet = table_sheet(tournament, number)
    status = 200
    if request.method == "POST":
        counts, bad = _counts_posted(request, sheet)
        try:
            if bad:
                raise TourneyError(
                    "invalid_chips",
                    _("Seat %(seats)s: a count is a whole number of chips from 1.")
                    % {"seats": ", ".join(bad)},
                    422,
                )
            require_busts_at(actor, tournament.pk, [e for e, _c in counts])
            stored = chip_counts_set(actor=actor, tournament_id=tournament.pk, counts=counts)
        except TourneyError as exc:
            messages.error(request, exc.detail)
            status = exc.status_code
            # what was typed stays in the fields: one typo must not cost the table's counts
            for row in sheet:
                row["typed"] = (request.POST.get(f"chips-{row['entry_id']}") or "")[:20]
        else:
            messages.success(request, _("%(n)s counts saved.") % {"n": stored})
            return redirect(back)
    context = {
        "tournament": tournament,
        "number": number,
        "sheet": sheet,
        "dealer": dealer,
        "action": back,
        "total": sum(r["chips"] or 0 for r in sheet),
    }
    return render(request, "tourney/chip_counts/sheet.html", context, status=status)


@role_required("floor")
def table_counts(request, tournament_id: int, number: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    get_object_or_404(TournamentTable, tournament=tournament, number=number)
    back = reverse("tourney:table_counts", args=[tournament_id, number])
    return _sheet(request, tournament, number, request.user, back, dealer=False)


@never_cache
def dealer_counts(request, token: str):
    actor = dealer_actor(token)
    if actor is None or actor.revoked:
        raise Http404
    tournament = get_object_or_404(Tournament, pk=actor.tournament_id)
    back = reverse("tourney:dealer_counts", args=[token])
    return _sheet(request, tournament, actor.table, actor, back, dealer=True)


@role_required("read")
def count_list(request, tournament_id: int):
    """The chip-count list (print): every counted stack, the leaders first."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = {
        "tournament": tournament,
        "rows": chip_leaderboard(tournament),
        "check": counts_check(tournament),
    }
    return render(request, "tourney/chip_counts/list.html", context)


@role_required("read")
def bag_slips(request, tournament_id: int):
    """One slip a bag (print, A4 or 80 mm): player, flight, chips, and the Day-2 seat once
    drawn."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    bags = (
        Entry.objects.filter(counted_entries(tournament))
        .select_related("player", "tournament", "tournament__main_event")
        .order_by("player__name")
    )
    day2 = {
        e.day1_entry_id: e
        for e in Entry.objects.filter(day1_entry__in=bags).select_related("tournament_table")
    }
    slips = [{"entry": e, "day2": day2.get(e.pk)} for e in bags]
    return render(
        request, "tourney/chip_counts/bag_slips.html", {"tournament": tournament, "slips": slips}
    )


def festival_console_context(request, tournament: Tournament) -> dict | None:
    """The console's festival panel: a main event's flights and Day 2, a flight's counts and
    end of day, the leaders; None for any other tournament."""
    if not (tournament.is_main_event or tournament.main_event_id):
        return None
    context = {
        "leaders": chip_leaderboard(tournament, limit=10),
        "check": counts_check(tournament),
        "flights": flight_rows(tournament) if tournament.is_main_event else [],
        "tables": list(
            TournamentTable.objects.filter(
                tournament=tournament, status=TournamentTable.Status.OPEN
            )
            .order_by("number")
            .values_list("number", flat=True)
        ),
    }
    if tournament.main_event_id and tournament.status == Tournament.Status.FINISHED:
        main = Tournament.objects.only("seats_drawn_at").get(pk=tournament.main_event_id)
        context["corrections_open"] = main.seats_drawn_at is None
    if tournament.main_event_id and tournament.day_end_level:
        shown = clock_view(tournament)
        context["day_end"] = day_end_state(
            shown["period"].get("level"),
            (shown.get("next_period") or {}).get("level"),
            tournament.day_end_level,
        )
    if tournament.is_main_event:
        context["public_url"] = request.build_absolute_uri(
            reverse("public_page:page", args=[public_token(tournament)])
        )
        context["day2_ready"] = (
            tournament.seats_drawn_at is None
            and bool(context["flights"])
            and all(f["status"] == Tournament.Status.FINISHED for f in context["flights"])
        )
    return context


@role_required("read")
def festival_panel(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = {
        "tournament": tournament,
        "festival": festival_console_context(request, tournament),
        "can_direct": roles.can(request.user, "director"),
    }
    return render(request, "tourney/chip_counts/_festival_console.html", context)


@role_required("director")
@require_POST
def day_end(request, tournament_id: int):
    run_service(
        request,
        lambda: flight_day_end(actor=request.user, tournament_id=tournament_id),
        _("The day is over: the players left are bagged."),
    )
    return redirect("tourney:console", tournament_id)


@role_required("director")
@require_POST
def day2(request, tournament_id: int):
    run_service(
        request,
        lambda: day2_draw(actor=request.user, main_id=tournament_id),
        _("Day 2 drawn: print the seat list and the bag slips."),
    )
    return redirect("tourney:console", tournament_id)


@role_required("director")
@require_POST
def flight_add(request, tournament_id: int) -> HttpResponse:
    typed = request.POST.get("tables", "").replace(",", " ").split()
    numbers = [whole_number(n, most=9_999, least=1) for n in typed]
    if None in numbers:
        messages.error(request, _("Tables are table numbers, e.g. 1 2 3."))
        return redirect("tourney:console", tournament_id)
    raw_level = request.POST.get("day_end_level", "").strip()
    day_end_level = whole_number(raw_level, most=LEVEL_MAX, least=1) if raw_level else None
    if raw_level and day_end_level is None:
        messages.error(request, _("The day ends after a level: a number from 1."))
        return redirect("tourney:console", tournament_id)
    flight = run_service(
        request,
        lambda: flight_create(
            actor=request.user,
            main_id=tournament_id,
            name=request.POST.get("name", ""),
            table_numbers=numbers or None,
            day_end_level=day_end_level,
        ),
        _("Flight added."),
    )
    return redirect("tourney:console", flight.pk if flight else tournament_id)


@role_required("director")
@require_POST
def public_revoke(request, tournament_id: int):
    run_service(
        request,
        lambda: public_link_revoke(actor=request.user, tournament_id=tournament_id),
        _("The old public link no longer works; share the new one."),
    )
    return redirect("tourney:console", tournament_id)
