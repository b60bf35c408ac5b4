"""Pages of payouts: the payout-structure list and editor, the console's payouts and deal
panel, the results (printable, CSV, JSON), the prize receipt and the championships.

Writes go through the JSON API (`tourney/payouts/api.py`) from the pages' scripts, except the
small forms here, which call the same services.
"""

import csv

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tourney.core import roles
from tourney.deals.usecases import players_left
from tourney.domain.house_rules_params import final_table_players
from tourney.domain.payouts import DEFAULT_TEMPLATE, PAYOUT_TEMPLATES
from tourney.models import Entry, LedgerEntry, PayoutStructure, Season, Tournament
from tourney.payouts.forms import SeasonAttachForm, SeasonForm
from tourney.payouts.selectors import (
    brackets_json,
    payout_ladder,
    payout_structure_out,
    tournament_results,
)
from tourney.payouts.usecases import payout_structure_duplicate
from tourney.seasons.usecases import (
    season_create,
    season_standings,
    season_update,
    tournament_season_set,
)
from tourney.system.pages import role_required, run_service
from tourney.tournaments.selectors import tournament_rules, tournament_summary

RESULT_FIELDS = [
    "place",
    "place_to",
    "tied",
    "entry_id",
    "entry_number",
    "player_name",
    "prize",
    "deal",
    "disqualified",
    "forfeited",
    "paid",
]


def structure_name(row: PayoutStructure) -> str:
    """Templates' names are stored in English and shown in the reader's language."""
    return _(row.name) if row.template_key else row.name


# --- payout structures -----------------------------------------------------------------------


@role_required("read")
def payout_structure_list(request):
    rows = []
    for row in PayoutStructure.objects.all():
        brackets = row.brackets or []
        rows.append(
            {
                "structure": row,
                "name": structure_name(row),
                "tables": len(brackets),
                "most_paid": max((len(b["shares"]) for b in brackets), default=0),
            }
        )
    rows.sort(key=lambda r: (not r["structure"].template_key, -r["structure"].pk))
    return render(
        request,
        "tourney/payout_structures.html",
        {"rows": rows, "can_edit": roles.can(request.user, "director")},
    )


def editor_strings() -> dict[str, str]:
    return {
        "entries": _("entries"),
        "from": _("From %(n)s entries"),
        "range": _("%(a)s–%(b)s entries"),
        "place": _("Place"),
        "percent": _("%"),
        "amount": _("Amount"),
        "addPlace": _("+ Place"),
        "removePlace": _("Remove the last place"),
        "addTable": _("+ Table"),
        "removeTable": _("Remove this table"),
        "total": _("Total"),
        "saved": _("Saved"),
        "ready": _("Ready to save"),
        "fixFirst": _("Fix this before saving"),
        "placesPaid": _("%(n)s places paid"),
        "onePlacePaid": _("1 place paid"),
        "unsavedLeave": _("You have unsaved changes."),
        "firstEntries": _("Entries from"),
        "lastEntries": _("to (empty: no limit)"),
    }


def _editor(request, row: PayoutStructure | None, data: dict):
    editable = roles.can(request.user, "director") and not (row and row.template_key)
    config = {
        "id": row.pk if row else None,
        "structure": data,
        "editable": editable,
        "i18n": editor_strings(),
        "edit_url": reverse("payouts:structure_edit", args=[0]),
    }
    return render(
        request,
        "tourney/payout_structure_edit.html",
        {
            "structure": row,
            "name": structure_name(row) if row else data["name"],
            "config": config,
            "editable": editable,
            "shortcuts": [
                ("↑ ↓ Enter", _("Move between places")),
                ("Alt+P", _("Add a place")),
                ("Alt+T", _("Add a table of entries")),
                ("Ctrl+S", _("Save")),
            ],
        },
    )


@role_required("director")
def payout_structure_new(request):
    template = PAYOUT_TEMPLATES[DEFAULT_TEMPLATE]
    starter = payout_structure_out(
        PayoutStructure(name=_("New payout structure"), brackets=brackets_json(template)[:5])
    )
    return _editor(request, None, starter)


@role_required("read")
def payout_structure_edit(request, structure_id: int):
    row = get_object_or_404(PayoutStructure, pk=structure_id)
    data = payout_structure_out(row)
    data["name"] = structure_name(row)
    return _editor(request, row, data)


@require_POST
@role_required("director")
def payout_structure_copy(request, structure_id: int):
    copy = run_service(
        request, lambda: payout_structure_duplicate(actor=request.user, structure_id=structure_id)
    )
    if copy is None:
        return redirect("payouts:structures")
    messages.success(request, _("Copied. You are editing the copy."))
    return redirect("payouts:structure_edit", copy.pk)


# --- the console's panel -------------------------------------------------------------------


@role_required("read")
def console_panel(request, tournament_id: int):
    """Payouts now, the structure chosen, the deal in force, who was paid (htmx partial)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    summary = tournament_summary(tournament)
    ladder = payout_ladder(tournament, summary, limit=12)
    results = tournament_results(tournament)
    left = players_left(tournament) if tournament.status == Tournament.Status.RUNNING else []
    rules = tournament_rules(tournament)
    return render(
        request,
        "tourney/_payouts_panel.html",
        {
            "tournament": tournament,
            "summary": summary,
            "ladder": ladder,
            "results": results,
            "recent": results.rows[:6],
            "structures": [(s.pk, structure_name(s)) for s in PayoutStructure.objects.all()],
            "can_direct": roles.can(request.user, "director"),
            "can_pay": roles.can(request.user, "desk"),
            "can_floor": roles.can(request.user, "floor"),
            "players_left": left,
            # A deal is for the final table (or once every player left is paid).
            "deal_possible": results.deal is None
            and 2 <= len(left) <= max(len(results.payouts), final_table_players(rules)),
            "unit": rules.money_rounding,
        },
    )


# --- results ---------------------------------------------------------------------------------


def _results_context(tournament: Tournament) -> dict:
    results = tournament_results(tournament)
    return {
        "tournament": tournament,
        "summary": tournament_summary(tournament),
        "results": results,
        "rows": results.rows,
        "total_prizes": sum(r["prize"] for r in results.rows),
        "total_bounties": sum(r["bounties"] for r in results.rows),
        "still_playing": Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ACTIVE
        ).count()
        if tournament.status != Tournament.Status.FINISHED
        else 0,
    }


@role_required("read")
def results_page(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = _results_context(tournament)
    context["can_pay"] = roles.can(request.user, "desk")
    return render(request, "tourney/results.html", context)


def _filename(tournament: Tournament, ext: str) -> str:
    return f"{slugify(tournament.name) or 'tournament'}-{tournament.pk}-results.{ext}"


@role_required("read")
def results_csv(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(tournament, "csv")}"'
    response.write("\ufeff")  # spreadsheets then read the names' accents right
    writer = csv.writer(response)
    writer.writerow(RESULT_FIELDS)
    for row in tournament_results(tournament).rows:
        writer.writerow(
            [int(row[f]) if isinstance(row[f], bool) else row[f] for f in RESULT_FIELDS]
        )
    return response


@role_required("read")
def results_json(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    results = tournament_results(tournament)
    body = {
        "tournament": {
            "id": tournament.pk,
            "name": tournament.name,
            "status": tournament.status,
            "currency": tournament.currency,
        },
        "prize_pool": results.pool,
        "forfeited": results.forfeited,
        "deal": {"id": results.deal.pk, "method": results.deal.method} if results.deal else None,
        "results": results.rows,
    }
    response = JsonResponse(body, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{_filename(tournament, "json")}"'
    return response


@role_required("desk")
def prize_receipt(request, tournament_id: int, entry_id: int):
    """The prize's cage receipt: the one receipt per ledger transaction (tourney/cage/views.py)."""
    payment = (
        LedgerEntry.objects.filter(
            tournament_id=tournament_id,
            entry_id=entry_id,
            kind=LedgerEntry.Kind.PAYOUT,
            amount__lt=0,
        )
        .order_by("-at", "-id")
        .first()
    )
    if payment is None:
        raise Http404
    url = reverse("tourney:receipt_number", args=[tournament_id, payment.receipt_number])
    query = request.META.get("QUERY_STRING", "")
    return redirect(f"{url}?{query}" if query else url)


# --- championships ---------------------------------------------------------------------------


def _form_refused(request, form) -> None:
    """A page form's first refusal as an error message."""
    messages.error(request, next(iter(form.errors.values()))[0])


@role_required("read")
def season_list(request):
    if request.method == "POST":
        if not roles.can(request.user, "director"):
            return redirect("payouts:seasons")
        form = SeasonForm(request.POST)
        season = (
            run_service(
                request,
                lambda: season_create(actor=request.user, **form.season_fields()),
                _("Championship created."),
            )
            if form.is_valid()
            else _form_refused(request, form)
        )
        if season:
            return redirect("payouts:season", season.pk)
    seasons = Season.objects.all()
    return render(
        request,
        "tourney/seasons.html",
        {
            "seasons": [(s, s.tournaments.count()) for s in seasons],
            "formulas": Season.Formula.choices,
            "can_edit": roles.can(request.user, "director"),
        },
    )


def _season_attach(request, season: Season) -> None:
    form = SeasonAttachForm(request.POST)
    if not form.is_valid():
        _form_refused(request, form)
        return
    data = form.cleaned_data
    run_service(
        request,
        lambda: tournament_season_set(
            actor=request.user,
            tournament_id=data["tournament"],
            season_id=season.pk,
            season_round=data["round"],
        ),
        _("Round added."),
    )


@role_required("read")
def season_page(request, season_id: int):
    season = get_object_or_404(Season, pk=season_id)
    if request.method == "POST" and roles.can(request.user, "director"):
        if request.POST.get("action") == "attach":
            _season_attach(request, season)
        else:
            form = SeasonForm(request.POST)
            if form.is_valid():
                run_service(
                    request,
                    lambda: season_update(
                        actor=request.user, season_id=season.pk, **form.season_fields()
                    ),
                    _("Saved"),
                )
            else:
                _form_refused(request, form)
        return redirect("payouts:season", season.pk)
    data = season_standings(season)
    rounds = data["rounds"]
    for r in rounds:
        r["status_label"] = Tournament.Status(r["status"]).label
    rows = [
        {
            **s,
            "cells": [
                (
                    r["tournament_id"],
                    s["rounds"].get(str(r["tournament_id"])),
                    r["tournament_id"] in s["counted"],
                )
                for r in rounds
            ],
        }
        for s in data["standings"]
    ]
    return render(
        request,
        "tourney/season.html",
        {
            "season": season,
            "data": data,
            "rounds": rounds,
            "rows": rows,
            "formulas": Season.Formula.choices,
            "points_table_text": ", ".join(str(p) for p in season.points_table or []),
            "can_edit": roles.can(request.user, "director"),
            "attachable": Tournament.objects.filter(season__isnull=True)[:50],
        },
    )
