"""Color-up pages: the chip-race page per table (phone first), its live plan, the console's
color-up card and the dealer page's banner.

Thin on purpose: clocks/color_ups/usecases.py decides. A form posted by htmx gets 204 (done)
or 422 (refused) with `HX-Trigger: {"floor:done": {"ok", "toasts"}}`, which static/js/floor.js
turns into toasts and a refresh of the page's live parts (as on the dealer page).
"""

import json
import re
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from clocks.clock.selectors import clock_view, structure_periods
from clocks.color_ups.forms import ColorUpChoiceForm, ColorUpForm, ColorUpFoundForm
from clocks.color_ups.selectors import (
    color_up_for_table,
    color_up_out,
    color_up_preview,
    color_ups_status,
)
from clocks.color_ups.usecases import (
    color_up_confirm,
    color_up_found,
    color_up_run,
    color_up_undo,
)
from clocks.domain.colorup import color_up_break_for
from clocks.models import ColorUp
from infra.web.form_fields import first_error
from infra.web.page_answers import answer, toast
from tables.domain.cards import Card
from tables.models import TournamentTable
from tables.seating.selectors import at_table
from tourney.core import roles
from tourney.core.errors import TourneyError
from tourney.models import Entry, Tournament
from tourney.system.pages import role_required
from tourney.tournaments.selectors import tournament_rules

SUITS = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"})
METHOD_LABELS = {m.value: m.label for m in ColorUp.Method}


def _num(value: int, sign: bool = False) -> str:
    """A chip count as the venue writes it (40,000 / 40 000), with + or - when asked."""
    text = number_format(abs(value) if sign else value, force_grouping=True)
    return ("+" if value >= 0 else "−") + text if sign else text


def _card_label(code: str) -> str:
    try:
        return Card.from_code(code).label
    except ValueError:
        return code


def _decorate(row: dict) -> dict:
    """Card labels ("K♥") on a color-up row, seats by deal order then seat."""
    for seat in row["seats"]:
        seat["card_labels"] = [(c, _card_label(c)) for c in seat.get("cards") or []]
        seat["best_label"] = _card_label(seat["best_card"]) if seat.get("best_card") else ""
    row["winner_set"] = set(row.get("winners") or [])
    return row


@dataclass(frozen=True)
class Face:
    """Who runs a table's color-up page and where its forms post: staff by their role at
    /tournaments/<id>/tables/<n>/color-up/, or that table's dealer link at
    /dealer/<token>/color-up/ (tables/dealer_links/views.py). The same page and the same writes
    either way; a dealer link's face has no undo (staff only, as in the API) and goes back to
    its dealer page (`done_url`) once the table is colored up."""

    actor: object
    can_floor: bool
    can_direct: bool
    urls: dict
    done_url: str | None = None


def staff_face(request: HttpRequest, tournament_id: int, number: int) -> Face:
    return Face(
        actor=request.user,
        can_floor=roles.can(request.user, "floor"),
        can_direct=roles.can(request.user, "director"),
        urls=_urls(tournament_id, number),
    )


# --- what the pages show ---------------------------------------------------------------------


def colorup_summary(tournament: Tournament, period_index: int | None = None) -> dict:
    """The color-up of the current break (or of the break at `period_index`) with the chips'
    colours and the method's name, for the console card, the banner and the page."""
    status = color_ups_status(tournament, period_index=period_index)
    chips = {int(c.get("value", 0)): c.get("color", "") for c in tournament.structure.chips}
    status["removed_chips"] = [{"value": v, "color": chips.get(v, "")} for v in status["removed"]]
    status["method_label"] = METHOD_LABELS.get(status["method"], status["method"])
    unit = status["unit"]
    status["unit_counts"] = [
        {"value": v, "units": v // unit} for v in status["removed"] if unit and v != unit
    ]
    return status


def _page_context(request: HttpRequest, tournament: Tournament, number: int, face: Face) -> dict:
    table = get_object_or_404(
        TournamentTable.objects.exclude(status=TournamentTable.Status.IDLE),
        tournament=tournament,
        number=number,
    )
    status = colorup_summary(tournament)
    can_direct = face.can_direct
    period_index = status["period_index"]
    override = False
    if not status["active"] and can_direct:
        # The director may color a table up outside the break: the latest or next one.
        override_status = _override_status(tournament)
        if override_status is not None:
            status, period_index, override = override_status, override_status["period_index"], True
    existing = (
        color_up_for_table(tournament, number, period_index) if period_index is not None else None
    )
    players = list(
        Entry.objects.filter(seat_row__tournament_table=table, status=Entry.Status.ACTIVE)
        .order_by("seat")
        .values("seat", "pk", "player__name")
    )
    method = request.GET.get("method") or status["method"]
    return {
        "tournament": tournament,
        "table": table,
        "status": status,
        "override": override,
        "players": players,
        "method": method if method in METHOD_LABELS else status["method"],
        "methods": METHOD_LABELS,
        "house_method": status["method"],
        "rules": tournament_rules(tournament),
        "color_up": _decorate(color_up_out(existing)) if existing else None,
        "can_floor": face.can_floor,
        "can_direct": can_direct,
        "urls": face.urls,
    }


def _override_status(tournament: Tournament) -> dict | None:
    """Outside a color-up break: the break a director's color-up would belong to."""
    periods = structure_periods(tournament.structure_id)
    target = color_up_break_for(periods, clock_view(tournament)["period_index"], override=True)
    return colorup_summary(tournament, target) if target is not None else None


# The page's own routes, staff's under clocks: and a dealer link's under dealer_links:.
PAGE_ROUTES = (
    "colorup",
    "colorup_live",
    "colorup_preview",
    "colorup_run",
    "colorup_confirm",
    "colorup_found",
)


def page_urls(namespace: str, args: list) -> dict:
    return {name: reverse(f"{namespace}:{name}", args=args) for name in PAGE_ROUTES}


def _urls(tournament_id: int, number: int) -> dict:
    args = [tournament_id, number]
    return page_urls("clocks", args) | {
        "colorup_undo": reverse("clocks:colorup_undo", args=args),
        "dealer": reverse("tables:dealer", args=args),
        "console": reverse("tourney:console", args=[tournament_id]),
        "events": f"/api/v1/tournaments/{tournament_id}/events",
    }


@role_required("read")
def colorup_page(request, tournament_id: int, number: int):
    return page(request, tournament_id, number, staff_face(request, tournament_id, number))


def page(request, tournament_id: int, number: int, face: Face) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = _page_context(request, tournament, number, face)
    return render(request, "clocks/colorup.html", context)


@role_required("read")
@require_GET
def colorup_live(request, tournament_id: int, number: int):
    return live(request, tournament_id, number, staff_face(request, tournament_id, number))


def live(request, tournament_id: int, number: int, face: Face) -> HttpResponse:
    """The part of the page that changes: the form, or the race dealt / done."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = _page_context(request, tournament, number, face)
    return render(request, "clocks/_colorup_table.html", context)


@role_required("read")
@require_GET
def floor_colorup(request, tournament_id: int):
    """The console's color-up card (empty outside a color-up break)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(
        request,
        "clocks/_floor_colorup_card.html",
        {"tournament": tournament, "colorup": colorup_summary(tournament)},
    )


@role_required("read")
@require_GET
def dealer_colorup(request, tournament_id: int, number: int):
    """The dealer page's banner during a color-up break."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(
        request,
        "clocks/_dealer_colorup_banner.html",
        dealer_banner_context(tournament, number),
    )


def dealer_banner_context(tournament: Tournament, number: int) -> dict:
    status = colorup_summary(tournament)
    row = next((t for t in status["tables"] if t["table"] == number), None)
    return {
        "tournament": tournament,
        "number": number,
        "colorup": status,
        "table_status": row["status"] if row else None,
        "colorup_url": reverse("clocks:colorup", args=[tournament.pk, number]),
    }


# --- the dealer's counts from the form --------------------------------------------------------


def _cards(text: str) -> list[str]:
    return [c for c in re.split(r"[\s,;]+", text.translate(SUITS)) if c]


def form_input(data: dict, method: str, seats: list[int], with_cards: bool):
    """Seat rows and (`with_cards`: the dealer types the real cards) the cards typed, from a
    valid ColorUpForm's `odd_<seat>`, `zero_<seat>`, `stack_<seat>` and `cards_<seat>`."""
    rows = []
    for seat in seats:
        if method == ColorUp.Method.RACE:
            odd = data[f"odd_{seat}"] or 0
            zero = data[f"zero_{seat}"]
            if odd or zero:
                rows.append({"seat": seat, "odd_chips": odd, "zero_stack": zero})
        else:
            stack = data[f"stack_{seat}"]
            if stack is not None:
                rows.append({"seat": seat, "stack": stack})
    cards = None
    if method == ColorUp.Method.RACE and with_cards:
        cards = {str(s): _cards(data[f"cards_{s}"]) for s in seats}
        cards = {s: c for s, c in cards.items() if c}
    return rows, cards


def _table_seats(tournament: Tournament, number: int) -> list[int]:
    return list(
        Entry.objects.filter(at_table(tournament, number), status=Entry.Status.ACTIVE)
        .order_by("seat")
        .values_list("seat", flat=True)
    )


@role_required("floor")
@require_POST
def colorup_preview(request, tournament_id: int, number: int):
    return preview(request, tournament_id, number, staff_face(request, tournament_id, number))


def preview(request, tournament_id: int, number: int, face: Face) -> HttpResponse:
    """The live plan under the form: nothing saved."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = ColorUpForm(request.POST, _table_seats(tournament, number))
    if not form.is_valid():
        return render(
            request,
            "clocks/_colorup_plan.html",
            {"tournament": tournament, "error": first_error(form)},
        )
    data = form.cleaned_data
    method = data["method"] or tournament_rules(tournament).color_up_method
    override = data["override"] and face.can_direct
    with_cards = data["entry_mode"] == "cards"
    seats, cards = form_input(data, method, form.seats, with_cards)
    context = {"tournament": tournament, "method": method, "with_cards": with_cards}
    try:
        plan = color_up_preview(
            tournament, table_number=number, seats=seats, method=method, override=override
        )
        context["plan"] = _decorate(plan)
        needed = {s["seat"]: s.get("cards_needed") or 0 for s in plan["seats"]}
        context["cards_needed"] = json.dumps({str(s): n for s, n in needed.items() if n})
        typed = {int(s): len(c) for s, c in (cards or {}).items()}
        if cards and all(typed.get(s, 0) == n for s, n in needed.items() if n):
            context["outcome"] = _decorate(
                color_up_preview(
                    tournament,
                    table_number=number,
                    seats=seats,
                    method=method,
                    cards=cards,
                    override=override,
                )
            )
    except TourneyError as exc:
        context["error"] = exc.detail
    return render(request, "clocks/_colorup_plan.html", context)


# --- writes -----------------------------------------------------------------------------------


def _undo_url(tournament_id: int, color_up_id: int) -> str:
    return reverse("api:undo_color_up", args=[tournament_id, color_up_id])


def _done_text(row: dict) -> str:
    change = row["chips_change"] or 0
    if row["method"] == ColorUp.Method.ROUND_UP:
        return _("Table %(t)s rounded up: %(change)s chips in play.") % {
            "t": row["table"],
            "change": _num(change, sign=True),
        }
    return ngettext(
        "Table %(t)s raced off: %(n)s chip won, %(change)s chips in play.",
        "Table %(t)s raced off: %(n)s chips won, %(change)s chips in play.",
        len(row["winners"]),
    ) % {"t": row["table"], "n": len(row["winners"]), "change": _num(change, sign=True)}


@role_required("floor")
@require_POST
def colorup_run(request, tournament_id: int, number: int):
    return run(request, tournament_id, number, staff_face(request, tournament_id, number))


def run(request, tournament_id: int, number: int, face: Face) -> HttpResponse:
    """ "Deal virtual cards", "Record the cards" (the race is shown, then confirmed), or a
    round-up's / undecided race's "Confirm" (done at once)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fallback = face.urls["colorup"]
    form = ColorUpForm(request.POST, _table_seats(tournament, number))
    if not form.is_valid():
        return answer(request, [toast(first_error(form), "bad")], False, fallback)
    data = form.cleaned_data
    method = data["method"] or tournament_rules(tournament).color_up_method
    mode, override = data["mode"], data["override"]
    if override and not face.can_direct:
        return answer(request, [toast(_("Only a director may do this."), "bad")], False, fallback)
    seats, cards = form_input(data, method, form.seats, mode == "cards")
    if mode == "cards" and not cards:
        note = toast(_("Type the cards dealt to each seat first."), "warn")
        return answer(request, [note], False, fallback)
    try:
        row = color_up_run(
            actor=face.actor,
            tournament_id=tournament.pk,
            table_number=number,
            seats=seats,
            method=method,
            cards=cards,
            confirm=mode == "confirm",
            override=override,
        )
    except TourneyError as exc:
        return answer(request, [toast(exc.detail, "bad")], False, fallback)
    if row["status"] == ColorUp.Status.OPEN:
        text = _("Cards dealt: show them to the players, then confirm.")
        return answer(request, [toast(text, "ok")], True, fallback)
    return _done(request, face, _done_text(row), _undo_url(tournament.pk, row["id"]), fallback)


def _done(request, face: Face, sentence: str, undo: str | None, fallback: str) -> HttpResponse:
    """A write that went through: its toast (with its undo for staff), and a dealer link's
    phone back on its dealer page once the table is colored up."""
    if face.done_url is None:
        return answer(request, [toast(sentence, "ok", undo)], True, fallback)
    response = answer(request, [toast(sentence, "ok")], True, face.done_url)
    if response.status_code == 204:
        response["HX-Redirect"] = face.done_url
    return response


def _on_color_up(
    request, tournament_id: int, face: Face, service, text, done: bool = False
) -> HttpResponse:
    """Confirm or undo the color-up named in the form: the service's answer as a toast
    (`text(row)`: its sentence and its undo URL or None), a refusal as a red one. `done`: the
    table is colored up (a dealer link's phone goes back to its dealer page)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fallback = face.urls["colorup"]
    form = ColorUpChoiceForm(request.POST)
    if not form.is_valid():
        return answer(request, [toast(first_error(form), "bad")], False, fallback)
    try:
        row = service(
            actor=face.actor,
            tournament_id=tournament.pk,
            color_up_id=form.cleaned_data["color_up"] or 0,
        )
    except TourneyError as exc:
        return answer(request, [toast(exc.detail, "bad")], False, fallback)
    sentence, undo = text(tournament, row)
    if done:
        return _done(request, face, sentence, undo, fallback)
    return answer(request, [toast(sentence, "ok", undo)], True, fallback)


@role_required("floor")
@require_POST
def colorup_confirm(request, tournament_id: int, number: int):
    return confirm(request, tournament_id, number, staff_face(request, tournament_id, number))


def confirm(request, tournament_id: int, number: int, face: Face) -> HttpResponse:
    return _on_color_up(
        request,
        tournament_id,
        face,
        color_up_confirm,
        lambda tournament, row: (_done_text(row), _undo_url(tournament.pk, row["id"])),
        done=True,
    )


def _undone_text(tournament, row) -> tuple[str, None]:
    if row["done_at_ms"] is None:
        return _("Race discarded: enter the odd chips again."), None
    return _("Color-up undone: the table colors up again."), None


@role_required("floor")
@require_POST
def colorup_undo(request, tournament_id: int, number: int):
    face = staff_face(request, tournament_id, number)
    return _on_color_up(request, tournament_id, face, color_up_undo, _undone_text)


@role_required("floor")
@require_POST
def colorup_found(request, tournament_id: int, number: int):
    return found(request, tournament_id, number, staff_face(request, tournament_id, number))


def found(request, tournament_id: int, number: int, face: Face) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    fallback = face.urls["colorup"]
    form = ColorUpFoundForm(request.POST)
    if not form.is_valid():
        return answer(request, [toast(first_error(form), "warn")], False, fallback)
    seat, value = form.cleaned_data["seat"], form.cleaned_data["value"]
    try:
        row = color_up_found(
            actor=face.actor,
            tournament_id=tournament.pk,
            color_up_id=form.cleaned_data["color_up"] or 0,
            seat=seat,
            value=value,
        )
    except TourneyError as exc:
        return answer(request, [toast(exc.detail, "bad")], False, fallback)
    text = _("Seat %(s)s: %(x)s exchanged, %(r)s removed from play.") % {
        "s": seat,
        "x": _num(row["exchanged"]),
        "r": _num(row["removed_value"]),
    }
    return answer(request, [toast(text, "ok")], True, fallback)
