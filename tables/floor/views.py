"""Floor pages: the dealer's table page, the console's to-do list, quick bust-out,
hand-for-hand and clock-call panels, and printable move slips.

Thin on purpose: selectors and services decide, these views only read the form, call them and
answer. A form posted by htmx (`HX-Request`) gets 204 (done) or 422 (refused) with an
`HX-Trigger: {"floor:done": {"ok": bool, "toasts": [...]}}` header that static/js/floor.js
turns into toasts and partial refreshes; a plain form post gets Django messages and a redirect.
"""

import re
from collections.abc import Callable
from datetime import UTC, datetime

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from infra.text.collation import sorted_by_name
from infra.web.form_fields import first_error
from infra.web.page_answers import answer, back_url, refused, toast
from infra.web.schema_types import TABLE_MAX, whole_number
from tables.clock_calls.selectors import clock_calls_active
from tables.clock_calls.usecases import clock_call_begin, clock_call_finish
from tables.domain.cards import Card
from tables.floor.forms import (
    ActionChoiceForm,
    ActionDoneForm,
    BustoutForm,
    ClockCallEndForm,
    ClockCallForm,
    HandForHandForm,
)
from tables.floor.selectors import (
    floor_actions_list,
    floor_actions_out,
    floor_halted_tables,
    seats_leaving,
)
from tables.floor.usecases import floor_action_done, floor_action_undo
from tables.hand_for_hand.operations import hand_for_hand_state
from tables.hand_for_hand.usecases import hand_for_hand_set
from tables.hands.usecases import hand_finished_with_busts
from tables.models import FloorAction, TournamentTable
from tables.seating.selectors import at_table, tournament_tables_layout
from tourney.core import roles
from tourney.core.errors import TourneyError
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Entry, Tournament
from tourney.penalties.selectors import seats_sitting_out
from tourney.purchases.views import bustout_rebuy_links
from tourney.system.pages import role_required
from tourney.tournaments.selectors import tournament_rules

SEARCH_LIMIT = 8
# "5 3", "5/3", "T5 S3", "t5s3", "5-3": table then seat.
TABLE_SEAT = re.compile(r"^\s*[tT]?\s*(\d{1,4})\s*(?:[\s/.:,-]|[sS])\s*[sS]?\s*(\d{1,2})\s*$")


# --- reading: what the floor pages show --------------------------------------------------


def _card_label(code: str | None) -> str:
    if not code:
        return ""
    try:
        return Card.from_code(code).label
    except ValueError:
        return code


def _when(ms: int | None) -> datetime | None:
    return datetime.fromtimestamp(ms / 1000, tz=UTC) if ms else None


_VOID = frozenset({FloorAction.Status.SUPERSEDED, FloorAction.Status.UNDONE})


def _decorate(actions: list[dict]) -> list[dict]:
    """Card labels ("A♠") and `created_at` datetimes on the rows; a redraw's moves by seat;
    `void` on a move called off (its mover busted before moving: no Done, no slip) and the
    moves still to make or made (`live_moves`), which "All done" compares with the pending."""
    for action in actions:
        action["card_label"] = _card_label(action.get("card"))
        action["created_at"] = _when(action.get("created_at_ms"))
        for move in action["moves"]:
            move["card_label"] = _card_label(move.get("card"))
            move["void"] = move["status"] in _VOID
        if action["kind"] == FloorAction.Kind.FINAL_TABLE_REDRAW:
            action["moves"].sort(key=lambda m: m["to_seat"] or 0)
        action["pending_moves"] = sum(1 for m in action["moves"] if m["status"] == "pending")
        action["live_moves"] = sum(1 for m in action["moves"] if not m["void"])
    return actions


CONSOLE_PARTS = frozenset({"todo", "tables", "h4h", "calls"})


def floor_console_context(
    request: HttpRequest, tournament: Tournament, parts: frozenset[str] = CONSOLE_PARTS
) -> dict:
    """What the console's floor panels need: the to-do list ("todo"), the tables map with
    the halted tables marked ("tables"), hand-for-hand ("h4h") and clocks called ("calls").
    A partial refetched on every event reads only its own `parts`."""
    context = {
        "can_floor": roles.can(request.user, "floor"),
        "can_direct": roles.can(request.user, "director"),
        "floor_urls": _floor_urls(tournament),
        "page_url": _console_url(tournament.pk),
    }
    actions = []
    if "todo" in parts:
        actions = _decorate(floor_actions_list(tournament, FloorAction.Status.PENDING))
        context["floor_actions"] = list(reversed(actions))  # oldest first: the order to walk
    # The seats are read only when something shows them: the map, a redraw, a mover to name.
    needs_seats = "tables" in parts or any(
        a["kind"] == FloorAction.Kind.FINAL_TABLE_REDRAW or a["entry_id"] is None for a in actions
    )
    tables = tournament_tables_layout(tournament) if needs_seats else []
    if tables:
        pending = actions or floor_actions_list(tournament, FloorAction.Status.PENDING)
        seats_leaving(tables, pending)
    if parts & {"todo", "tables"}:
        halted = floor_halted_tables(tournament)
        for table in tables:
            table["halted"] = table["number"] in halted
        context |= {
            "tables": tables,
            "halted_tables": sorted(halted),
            "floor_todo_count": len(actions) + len(halted),
            "players_by_table": {t["number"]: t["players"] for t in tables},
            "button_draws": {t["number"]: t["button_draw"] for t in tables},
        }
    if "h4h" in parts:
        context["h4h"] = hand_for_hand_state(tournament)
        context["open_tables"] = TournamentTable.objects.filter(
            tournament=tournament, status=TournamentTable.Status.OPEN
        ).count()
    if "calls" in parts:
        context["clock_calls"] = clock_calls_active(tournament)
    return context


def _floor_urls(tournament: Tournament) -> dict:
    args = [tournament.pk]
    return {
        name: reverse(f"tables:{name}", args=args)
        for name in (
            "floor_todo",
            "floor_tables",
            "floor_h4h",
            "floor_clock_calls",
            "floor_bustout",
            "floor_bustout_search",
            "floor_action_done",
            "floor_action_undo",
            "floor_h4h_set",
            "floor_clock_call_start",
            "floor_clock_call_end",
        )
    } | {"events": f"/api/v1/tournaments/{tournament.pk}/events"}


def moves_for_table(actions: list[dict], number: int) -> tuple[list[dict], list[dict]]:
    """Pending moves that bring players to table `number` and take them away from it.

    A move within the table (the final-table redraw at its host) counts as incoming only.
    """
    incoming, outgoing = [], []
    for action in actions:
        moves = action["moves"] if action["kind"] != FloorAction.Kind.MOVE else [action]
        for move in moves:
            if move["status"] != FloorAction.Status.PENDING:
                continue
            if move["to_table"] == number:
                incoming.append(move)
            elif move["from_table"] == number:
                outgoing.append(move)
    return incoming, outgoing


def _dealer_context(request: HttpRequest, tournament: Tournament, number: int) -> dict:
    layout = tournament_tables_layout(tournament, include_idle=True)
    table = next((t for t in layout if t["number"] == number), None)
    if table is None:
        raise Http404
    open_tables = [t for t in layout if t["status"] == "open"]
    halted = floor_halted_tables(tournament) if len(open_tables) > 1 else frozenset()
    h4h = hand_for_hand_state(tournament)
    actions = _decorate(floor_actions_list(tournament, FloorAction.Status.PENDING))
    incoming, outgoing = moves_for_table(actions, number)
    seats_leaving([table], actions)
    calls = [c for c in clock_calls_active(tournament) if c["table"] == number]
    # Seats sitting out a penalty: the dealer deals them in and kills the hand (docs/rules.md
    # §10.3).
    penalties = seats_sitting_out(tournament, number)
    for seat in table["seat_list"]:
        seat["penalty"] = penalties.get(seat["seat"])
    return {
        "tournament": tournament,
        "table": table,
        "table_open": table["status"] == "open",
        "halted": number in halted,
        "h4h": h4h,
        "h4h_waiting": h4h["active"] and number in h4h["tables_done"],
        "incoming": incoming,
        "outgoing": outgoing,
        "moves_count": len(incoming) + len(outgoing),
        "clock_calls": calls,
        # The house's minimum thinking time before a clock may be called (Mirage: 90 s).
        "clock_minimum": tournament_rules(tournament).clock_min_elapsed_seconds,
        "penalty_seats": [penalties[s] for s in sorted(penalties)],
        "can_floor": roles.can(request.user, "floor"),
        "floor_urls": _floor_urls(tournament),
        "page_url": reverse("tables:dealer", args=[tournament.pk, number]),
    }


@role_required("read")
def dealer(request, tournament_id: int, number: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = _dealer_context(request, tournament, number)
    context["live_url"] = reverse("tables:dealer_live", args=[tournament.pk, number])
    context["calls_url"] = reverse("tables:floor_clock_calls", args=[tournament.pk])
    return render(request, "tables/dealer.html", context)


@role_required("read")
@require_GET
def dealer_live(request, tournament_id: int, number: int):
    """The part of the dealer page that changes: seats, hold banner, moves."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(
        request, "tables/_dealer_table.html", _dealer_context(request, tournament, number)
    )


def _console_partial(template: str, part: str) -> Callable:
    @role_required("read")
    @require_GET
    def view(request, tournament_id: int):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        context = floor_console_context(request, tournament, frozenset({part}))
        return render(request, template, context | {"tournament": tournament})

    return view


floor_todo = _console_partial("tables/_floor_todo.html", "todo")
floor_tables = _console_partial("tables/_floor_tables.html", "tables")
floor_h4h = _console_partial("tables/_hand_for_hand.html", "h4h")


@role_required("read")
@require_GET
def floor_clock_calls(request, tournament_id: int):
    """Clocks called and still running; `?table=N` for one table (the dealer page)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    calls = clock_calls_active(tournament)
    table = whole_number(request.GET.get("table"), TABLE_MAX)
    if table is not None:
        calls = [c for c in calls if c["table"] == table]
    return render(
        request,
        "tables/_clock_call.html",
        {
            "tournament": tournament,
            "clock_calls": calls,
            "can_floor": roles.can(request.user, "floor"),
            "floor_urls": _floor_urls(tournament),
            "for_table": table,
            "page_url": reverse("tables:dealer", args=[tournament.pk, table])
            if table is not None
            else _console_url(tournament.pk),
        },
    )


@role_required("floor")
@require_GET
def bustout_search(request, tournament_id: int):
    """Seated players matching a name, or "table seat" ("5 3", "T5 S3")."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    query = request.GET.get("q", "").strip()
    rows = Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ACTIVE, tournament_table__isnull=False
    ).select_related("player", "tournament_table")
    by_seat = TABLE_SEAT.match(query)
    if not query:
        found = []
    elif by_seat:
        table, seat = (int(g) for g in by_seat.groups())
        found = list(rows.filter(at_table(tournament, table), seat=seat)[:1])
    elif query.isdigit():  # a table ("²" is a digit to str.isdigit, no number: none found)
        number = whole_number(query, TABLE_MAX)
        seated = rows.filter(at_table(tournament, number)) if number else rows.none()
        found = list(seated.order_by("seat"))
    else:
        # the language's collation (Mészáros before Molnár), not the database's code points
        found = sorted_by_name(
            rows.filter(player__name__icontains=query), key=lambda e: e.player.name
        )[:SEARCH_LIMIT]
    return render(
        request,
        "tourney/_bustout_results.html",
        {"tournament": tournament, "query": query, "results": found},
    )


@role_required("floor")
def move_slip(request, tournament_id: int, action_id: int):
    """Printable slips: one per move; a table break's or redraw's slips on one page."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    action = get_object_or_404(
        FloorAction.objects.select_related("parent"), tournament=tournament, pk=action_id
    )
    row = floor_actions_out([action.parent or action])[0]
    if action.parent_id is not None:  # one move of a break or redraw: its slip only
        row["moves"] = [m for m in row["moves"] if m["id"] == action_id]
    rows = [row]
    action = _decorate(rows)[0]
    slips = action["moves"] if action["kind"] != FloorAction.Kind.MOVE else [action]
    slips = [m for m in slips if m["status"] not in _VOID]
    return render(
        request,
        "tables/move_slip.html",
        {"tournament": tournament, "action": action, "slips": slips},
    )


# --- writing: the floor's forms ------------------------------------------------------------


def _console_url(tournament_id: int) -> str:
    return reverse("tourney:console", args=[tournament_id])


def _place_text(row: dict) -> str:
    if row["place_to"] != row["place"]:
        return _("%(name)s is out: places %(place)s–%(to)s shared") % {
            "name": row["player_name"],
            "place": row["place"],
            "to": row["place_to"],
        }
    return _("%(name)s is out in place %(place)s") % {
        "name": row["player_name"],
        "place": row["place"],
    }


def _planned_toast(actions: list[dict]) -> list[dict]:
    if not actions:
        return []
    return [
        toast(
            ngettext(
                "The floor has %(n)s new thing to do: see the list.",
                "The floor has %(n)s new things to do: see the list.",
                len(actions),
            )
            % {"n": len(actions)},
            "warn",
        )
    ]


@role_required("floor")
@require_POST
def bustout(request, tournament_id: int):
    """Players busted in one hand; with `finish_hand` and `table`, the hand is then reported
    finished at that table (the dealer's "Bust-out and hand finished")."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = BustoutForm(request.POST)
    valid = form.is_valid()
    table = form.cleaned_data.get("table")
    fallback = (
        reverse("tables:dealer", args=[tournament.pk, table])
        if table
        else _console_url(tournament.pk)
    )
    if not valid:
        return refused(request, first_error(form), fallback)
    busts, finish = form.cleaned_data["busts"], form.cleaned_data["finish_hand"]
    busted_by = form.cleaned_data["busted_by"]
    try:
        if finish:
            result = hand_finished_with_busts(
                actor=request.user,
                tournament_id=tournament.pk,
                table_number=table,
                eliminations=busts,
                busted_by=busted_by,
            )
        else:
            result = eliminations_record(
                actor=request.user,
                tournament_id=tournament.pk,
                eliminations=busts,
                busted_by=busted_by,
            )
    except TourneyError as exc:
        return refused(request, exc.detail, fallback)
    busted = {entry_id for entry_id, _stack in busts}
    rebuy_links = bustout_rebuy_links(request.user, tournament.pk, busted)
    toasts = [
        toast(
            _place_text(row),
            "ok",
            reverse("api:undo_elimination", args=[tournament.pk, row["entry_id"]]),
            rebuy_links.get(row["entry_id"]),
        )
        for row in result["results"]
        if row["entry_id"] in busted
    ]
    if tournament.bounty and not busted_by:
        # A bounty tournament's bust-out with no winner named: the bounties page asks for it.
        toasts.append(
            toast(
                _("Who won the pot? Name the winners on the bounties page."),
                "warn",
                link={
                    "href": reverse("bounties:page", args=[tournament.pk]),
                    "label": _("Bounties"),
                },
            )
        )
    planned = list(result["actions"])
    if result.get("hand_recorded"):
        toasts.append(toast(_("Hand recorded; the button has moved."), "ok"))
    return answer(request, toasts + _planned_toast(planned), ok=True, fallback=fallback)


def _action_text(row: dict) -> str:
    if row["kind"] == FloorAction.Kind.BREAK_TABLE:
        return _("Table %(t)s broken: every player is in the new seat.") % {"t": row["from_table"]}
    if row["kind"] == FloorAction.Kind.FINAL_TABLE_REDRAW:
        return _("Final table seated.")
    return _("Move done: %(name)s is at table %(t)s, seat %(s)s.") % {
        "name": row["player_name"] or _("the player"),
        "t": row["to_table"],
        "s": row["to_seat"],
    }


@role_required("floor")
@require_POST
def action_done(request, tournament_id: int):
    """The floor confirms an action (or one move of a break or redraw); `entry` names the
    mover when the system could not know."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fallback = back_url(request, _console_url(tournament.pk))
    form = ActionDoneForm(request.POST)
    if not form.is_valid():
        return refused(request, first_error(form), fallback)
    action_id = form.cleaned_data["action"]
    try:
        result = floor_action_done(
            actor=request.user,
            tournament_id=tournament.pk,
            action_id=action_id,
            entry_id=form.cleaned_data["entry"],
        )
    except TourneyError as exc:
        return refused(request, exc.detail, fallback)
    row = result["action"]
    if row["id"] != action_id:  # one move of a break or redraw
        row = next((m for m in row["moves"] if m["id"] == action_id), row)
    toasts = [toast(_action_text(row), "ok"), *_planned_toast(result["actions"])]
    return answer(request, toasts, ok=True, fallback=fallback)


@role_required("floor")
@require_POST
def action_undo(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fallback = back_url(request, _console_url(tournament.pk))
    form = ActionChoiceForm(request.POST)
    if not form.is_valid():
        return refused(request, first_error(form), fallback)
    try:
        floor_action_undo(
            actor=request.user, tournament_id=tournament.pk, action_id=form.cleaned_data["action"]
        )
    except TourneyError as exc:
        return refused(request, exc.detail, fallback)
    note = toast(_("Undone: the players keep the seats they had before."), "ok")
    return answer(request, [note], ok=True, fallback=fallback)


@role_required("director")
@require_POST
def hand_for_hand(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fallback = _console_url(tournament.pk)
    form = HandForHandForm(request.POST)
    if not form.is_valid():
        return refused(request, first_error(form), fallback)
    active = form.cleaned_data["active"]
    try:
        hand_for_hand_set(actor=request.user, tournament_id=tournament.pk, active=active)
    except TourneyError as exc:
        return refused(request, exc.detail, fallback)
    text = (
        _("Hand-for-hand is on: the clock is paused; every table plays one hand and waits.")
        if active
        else _("Hand-for-hand is over: the clock runs again.")
    )
    return answer(request, [toast(text, "warn" if active else "ok")], True, fallback)


@role_required("floor")
@require_POST
def clock_call_start(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = ClockCallForm(request.POST)
    valid = form.is_valid()
    table, seat = form.cleaned_data.get("table"), form.cleaned_data.get("seat")
    fallback = back_url(
        request,
        reverse("tables:dealer", args=[tournament.pk, table])
        if table
        else _console_url(tournament.pk),
    )
    if not valid:
        return refused(request, first_error(form), fallback)
    minimum = tournament_rules(tournament).clock_min_elapsed_seconds
    try:
        call = clock_call_begin(
            actor=request.user,
            tournament_id=tournament.pk,
            table_number=table,
            seat=seat,
            caller_seat=form.cleaned_data.get("caller_seat"),
            # The floor ticks that the player has had the house's minimum (docs/rules.md §9.1);
            # unticked, the call is refused as too early, as the API refuses it.
            elapsed_seconds=(minimum if form.cleaned_data.get("minimum_taken") else 0)
            if minimum
            else None,
        )
    except TourneyError as exc:
        return refused(request, exc.detail, fallback)
    text = _("Clock called on %(name)s: %(s)s seconds to act.") % {
        "name": call["player_name"] or _("seat %(s)s") % {"s": seat},
        "s": call["seconds"],
    }
    return answer(request, [toast(text, "warn")], ok=True, fallback=fallback)


CALL_OUTCOMES = {
    "acted": lambda: _("The player acted in time."),
    "expired": lambda: _("Time expired."),
    "cancelled": lambda: _("Clock call cancelled."),
}


@role_required("floor")
@require_POST
def clock_call_end(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fallback = back_url(request, _console_url(tournament.pk))
    form = ClockCallEndForm(request.POST)
    if not form.is_valid():
        return refused(request, first_error(form), fallback)
    call_id, outcome = form.cleaned_data["call"], form.cleaned_data["outcome"]
    try:
        clock_call_finish(
            actor=request.user, tournament_id=tournament.pk, call_id=call_id, outcome=outcome
        )
    except TourneyError as exc:
        return refused(request, exc.detail, fallback)
    kind = "warn" if outcome == "expired" else "ok"
    return answer(request, [toast(CALL_OUTCOMES[outcome](), kind)], ok=True, fallback=fallback)
