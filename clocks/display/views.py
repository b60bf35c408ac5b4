"""Lobby display pages opened from a signed read-only link (no login on a TV, no writes)."""

import math
from urllib.parse import urlencode

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clocks.display.selectors import display_state, display_token_tournament_id
from clocks.display.usecases import display_links_revoke
from tables.seating.selectors import seated_players_by_name, tournament_tables_layout
from tourney.domain.text import search_key
from tourney.models import Tournament
from tourney.system.pages import role_required, run_service
from tourney.tournaments.selectors import tournament_summary

# A rotating screen shows each tournament this long unless ?every= says otherwise (seconds).
ROTATE_DEFAULT_SECONDS = 20
ROTATE_MIN_SECONDS, ROTATE_MAX_SECONDS = 5, 600
ROTATE_MAX_SCREENS = 5  # each keeps an event stream open; browsers allow 6 per host
SEARCH_ROWS = 30  # a phone's search shows this many matches


def _tournament_for(token: str) -> Tournament:
    tournament_id = display_token_tournament_id(token)
    if tournament_id is None:
        raise Http404
    return get_object_or_404(
        Tournament.objects.select_related("structure", "room"), pk=tournament_id
    )


def _seat_rows(tournament: Tournament) -> list[dict]:
    return seated_players_by_name(tournament_tables_layout(tournament))


def _opening_periods(tournament: Tournament, count: int = 5) -> list[dict]:
    """The structure's first periods (levels numbered 1, 2, ..., and breaks), for the lobby
    screen before the clock starts."""
    periods, level = [], 0
    for p in tournament.structure.levels.order_by("position")[:count]:
        level += p.kind == "level"
        periods.append(
            {
                "kind": p.kind,
                "level": level,
                "small_blind": p.small_blind,
                "big_blind": p.big_blind,
                "ante": p.ante,
                "length": _short_length(p.duration_seconds),
                "levels_line": _levels_line(p.duration_seconds),
            }
        )
    return periods


def _short_length(seconds: int) -> str:
    """A break's length in the lobby's list of next levels: "15 min"; in seconds under a
    minute, as `_levels_line` says it (a 30-second break showed as "0 min")."""
    if seconds < 60:
        return _("%(seconds)s sec") % {"seconds": seconds}
    return _("%(minutes)s min") % {"minutes": seconds // 60}


def _levels_line(seconds: int) -> str:
    """ "Starting blinds · 20-minute levels"; in seconds under a minute (a test event's
    45-second levels showed as "0-minute levels"), each language's plural form."""
    if seconds < 60:
        return ngettext(
            "Starting blinds · %(n)s-second levels",
            "Starting blinds · %(n)s-second levels",
            seconds,
        ) % {"n": seconds}
    minutes = seconds // 60
    return ngettext(
        "Starting blinds · %(n)s-minute levels", "Starting blinds · %(n)s-minute levels", minutes
    ) % {"n": minutes}


def _clock_text(ms: int | None) -> str:
    """12:34 or 1:02:03 from milliseconds, seconds rounded up (as the live clock shows it)."""
    if ms is None:
        return ""
    seconds = math.ceil(max(0, ms) / 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def display_strings() -> dict[str, str]:
    """What display.js writes and says, in the page's language (%(name)s placeholders)."""
    return {
        "level": _("Level %(n)s"),
        "break": _("Break"),
        "finished": _("Tournament finished"),
        "cancelled": _("Tournament cancelled"),
        "cancelled_note": _("Ask at the registration desk about your buy-in."),
        "day_over": _("The day is over"),
        "last_level": _("Last level: play goes on"),
        "ante": _("Ante"),
        "bb_ante": _("BB ante"),
        "bb": _("%(n)s BB"),
        "seat": _("T%(t)s · S%(s)s"),
        "no_moves": _("No moves yet"),
        "color_up_note": _("leave the table: change them up"),
        "no_color_up": _("No color-up at this break"),
        "addon_now": _("On sale now at the tables: %(chips)s chips for %(price)s"),
        "color_up_race": _("Chip race"),
        "color_up_round_up": _("Stacks rounded up"),
        "color_up_mixed": _("Chip race and round-up"),
        "color_up_tables": _("%(done)s of %(total)s tables done"),
        "color_up_done": _("Done at every table: %(chips)s chips in play"),
        "bubble": _("Bubble"),
        "winner": _("Winner"),
        "seats_won": _("Seats won"),
        "move_bounty": _("bounty %(amount)s"),
        "mystery_left": _("Mystery bounties · %(left)s of %(n)s envelopes left"),
        "in_money": _("In the money"),
        "sound_on": _("Sound on"),
        "sound_off": _("Sound off"),
        "say_one_minute": _("One minute left in level %(n)s."),
        "say_level": _("Level %(n)s. Blinds %(sb)s and %(bb)s."),
        "say_ante": _("Ante %(ante)s."),
        "say_bb_ante": _("Big blind ante %(ante)s."),
        "say_break": _("Break for %(minutes)s minutes."),
        "say_color_up": _("Color-up: the %(chips)s chips leave the table."),
        "say_finished": _("The tournament is over. Thank you for playing."),
        "say_day_over": _("The day is over. Count your chips and bag them."),
        "registration_open": _("Registration open"),
        "seats_drawn": _("Seats drawn: take your seat"),
        "of_entries": _("of %(n)s entries"),
        "leaders_bb": _("%(n)s BB"),
    }


def _screen(tournament: Tournament, token: str, number: int = 1) -> dict:
    """One tournament's screen: the display state plus what the first server render needs."""
    state = display_state(tournament)
    clock = state["clock"]
    period = state["periods"][clock["period_index"]]
    stats = state["stats"]
    big_blind = period["big_blind"] if period["kind"] == "level" else 0
    if not big_blind and clock["next_period"]:
        big_blind = clock["next_period"]["big_blind"]
    chips = {c["value"]: c for c in state["chips"]}
    # The tournament has its winner: the finished screen, whatever the clock still says.
    over = tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    status = "finished" if over else clock["status"]
    return {
        "tournament": tournament,
        "token": token,
        # element id suffix: the first screen keeps the plain ids (#find-seat, #seat-results)
        "suffix": "" if number == 1 else f"-{number}",
        "json_id": f"display-state-{number}",
        "state": state,
        "period": period,
        "status_class": f"is-{status}"
        + (" is-cancelled" if tournament.status == Tournament.Status.CANCELLED else "")
        + (" is-break" if period["kind"] == "break" and status != "finished" else "")
        + (
            " is-last-minute"
            if status in ("running", "paused") and clock["remaining_ms"] <= 60_000
            else ""
        ),
        "countdown": _clock_text(clock["remaining_ms"]),
        "to_break": _clock_text(clock["time_to_next_break_ms"]),
        "average_bb": round(stats["average_stack"] / big_blind, 1) if big_blind else None,
        "color_up": [chips[v] for v in period["color_up"] if v in chips],
        "summary": tournament_summary(tournament),
        "seats": _seat_rows(tournament) if clock["status"] == "pending" else [],
        "opening_periods": _opening_periods(tournament),
        # A festival's event, or any with stacks counted: the chip leaders take a turn.
        "leaders_page": bool(
            state["leaders"] or tournament.is_main_event or tournament.main_event_id
        ),
        # A bounty tournament: the biggest bounties take a turn too (docs/rules.md §16).
        "bounties_page": bool(tournament.bounty),
        "state_url": reverse("clocks:display_state", args=[token]),
        # The API's event stream; the signed display token is its read access on a TV.
        "events_url": f"/api/v1/tournaments/{tournament.pk}/events?{urlencode({'display': token})}",
    }


def _page(request, screens: list[dict], rotate_seconds: int = 0):
    config = {
        "rotate_seconds": rotate_seconds,
        "time_zone": timezone.get_current_timezone_name(),
        "lang": get_language(),
        "strings": display_strings(),
    }
    return render(request, "clocks/display.html", {"screens": screens, "display_config": config})


@never_cache
def display(request, token: str):
    screen = _screen(_tournament_for(token), token)
    rotates = screen["leaders_page"] or screen["bounties_page"]
    return _page(request, [screen], ROTATE_DEFAULT_SECONDS if rotates else 0)


@never_cache
def display_state_json(request, token: str):
    """The display snapshot as JSON: the signed token is read access to that one tournament."""
    return JsonResponse(display_state(_tournament_for(token)))


@never_cache
def display_rotate(request):
    """One screen cycling through several tournaments: ?t=<token>&t=<token>[&every=<seconds>]."""
    tokens = list(dict.fromkeys(request.GET.getlist("t")))[:ROTATE_MAX_SCREENS]
    if not tokens:
        raise Http404
    try:
        every = int(request.GET.get("every", ROTATE_DEFAULT_SECONDS))
    except ValueError:
        every = ROTATE_DEFAULT_SECONDS
    every = min(ROTATE_MAX_SECONDS, max(ROTATE_MIN_SECONDS, every))
    screens = [_screen(_tournament_for(t), t, n) for n, t in enumerate(tokens, start=1)]
    return _page(request, screens, every)


def display_seats(request, token: str):
    """Find your seat: every seated player (the TV pages through them), or on a phone the rows
    whose name contains every typed word (accents ignored), by the language's collation."""
    tournament = _tournament_for(token)
    words = search_key(request.GET.get("q", "")).split()
    rows = [r for r in _seat_rows(tournament) if all(w in search_key(r["name"]) for w in words)]
    return render(
        request,
        "clocks/_display_seats.html",
        {"seats": rows[:SEARCH_ROWS] if words else rows, "query": request.GET.get("q", "")},
    )


@role_required("director")
@require_POST
def revoke(request, tournament_id: int):
    run_service(
        request,
        lambda: display_links_revoke(actor=request.user, tournament_id=tournament_id),
        _("Display links revoked. Open the display again on each screen with the new link."),
    )
    return redirect("tourney:console", tournament_id)
