"""Pages of the registration desk, the director console and the audit log."""

import time

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import F
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clocks.display_links import display_token
from clocks.selectors import display_periods
from clocks.services.clock import tournament_start
from clocks.services.clock_state import clock_view, structure_periods
from infra.text.collation import sorted_by_name
from infra.web.schema_types import whole_number
from tables.floor.views import floor_console_context
from tables.services.seating import seats_draw
from tourney import roles
from tourney.backups.selectors import backup_last
from tourney.domain.house_rules import PROFILES
from tourney.domain.purchases import MONEY_FIELDS, MoneySettings
from tourney.forms import NewPlayerForm, RegisterForm, TournamentForm
from tourney.models import AuditEntry, Entry, LedgerEntry, Tournament
from tourney.purchases.views import desk_purchase, desk_purchase_rows
from tourney.selectors import (
    entry_waiting_list,
    tournament_rules,
    tournament_summary,
)
from tourney.selectors_bans import players_tournament_bans
from tourney.selectors_players import player_duplicates, player_search
from tourney.services.entries import entry_register
from tourney.services.players import player_create
from tourney.services.tournaments import (
    registration_window,
    tournament_create,
)
from tourney.undo_links import undo_links
from tourney.views_desk import desk_entries, refunded_entry
from tourney.views_summary import console_activity_rows
from tourney.views_support import role_required, run_service


def _home_page(request, form: TournamentForm | None, status: int = 200):
    """Today and upcoming (by start, unscheduled last), then the finished ones (latest first)."""
    live = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)
    upcoming = Tournament.objects.filter(status__in=live).order_by(
        F("scheduled_start").asc(nulls_last=True), "-created_at", "-id"
    )[:50]
    finished = Tournament.objects.exclude(status__in=live).order_by(
        F("finished_at").desc(nulls_last=True), "-created_at", "-id"
    )[:30]
    return render(
        request,
        "tourney/home.html",
        {
            "tournaments": [(t, tournament_summary(t)) for t in upcoming],
            "finished": [(t, tournament_summary(t)) for t in finished],
            "form": form,
            "can_direct": roles.can(request.user, "director"),
        },
        status=status,
    )


@role_required("read")
def home(request):
    return _home_page(request, TournamentForm() if roles.can(request.user, "director") else None)


@role_required("director")
@require_POST
def tournament_new(request):
    form = TournamentForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        overrides = {"seats_per_table": data["seats_per_table"]} if data["seats_per_table"] else {}
        if data["reentry_max"] is not None:
            overrides["reentry_max"] = data["reentry_max"]
        money = MoneySettings(
            **{
                name: data[name] if data[name] is not None or name.endswith("_level") else 0
                for name in MONEY_FIELDS
            }
        )
        tournament = run_service(
            request,
            lambda: tournament_create(
                actor=request.user,
                name=data["name"],
                structure_id=data["structure"].pk,
                starting_stack=data["starting_stack"],
                buy_in=data["buy_in"],
                fee=data["fee"],
                room_id=data["room"].pk,
                house_rules=data["house_rules"],
                rules_overrides=overrides,
                table_numbers=data["table_numbers"] or None,
                waiting_list_enabled=data["waiting_list"],
                max_entries=data["max_entries"],
                scheduled_start=data["scheduled_start"],
                late_registration_level=data["late_registration_level"],
                money=money,
            ),
            _("Tournament created."),
        )
        if tournament:
            return redirect("tourney:console", tournament.pk)
    return _home_page(request, form, status=422)


def duration_text(ms: int | None) -> str:
    """Clock time as the room reads it: 1:05:09 or 9:59 (whole seconds, rounded up)."""
    if ms is None:
        return ""
    seconds = -(-ms // 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def _late_registration(tournament: Tournament) -> dict | None:
    """What the desk shows about late registration (None: no deadline, or not open)."""
    if tournament.status not in (Tournament.Status.REGISTERING, Tournament.Status.RUNNING):
        return None
    window = registration_window(tournament)
    if window is None:
        return None
    return {
        "level": window.level,
        "closed": window.passed,
        "left": duration_text(window.remaining_ms),
        "closes_at_ms": window.at_ms,
        "soon": window.remaining_ms is not None and window.remaining_ms <= 5 * 60_000,
    }


def _recent_entries(tournament: Tournament, limit: int = 12) -> list[Entry]:
    ids = Entry.objects.filter(tournament=tournament).order_by("-created_at", "-number")
    return desk_entries(
        tournament,
        Entry.objects.filter(pk__in=list(ids.values_list("pk", flat=True)[:limit])).order_by(
            "-created_at", "-number"
        ),
    )


@role_required("desk")
def desk(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "tourney/desk.html", _desk_context(request, tournament))


@role_required("desk")
def desk_live(request, tournament_id: int):
    """The desk's live column again (figures, latest registrations, waiting list, status, the
    late-registration banner): the page asks for it when its event stream says something
    changed, the clock included."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = {
        "tournament": tournament,
        "summary": tournament_summary(tournament),
        "recent": _recent_entries(tournament),
        "waiting": entry_waiting_list(tournament),
        "last": _desk_last(request, tournament),
        "late_registration": _late_registration(tournament),
        "oob": True,
    }
    return render(request, "tourney/_desk_live.html", context)


def _desk_last(request, tournament: Tournament) -> Entry | None:
    """The registration just made (?last=<entry id>), highlighted in the list."""
    last = whole_number(request.GET.get("last"), least=1)
    if last is None:
        return None
    found = desk_entries(tournament, Entry.objects.filter(tournament=tournament, pk=last))
    return found[0] if found else None


def _desk_context(request, tournament: Tournament) -> dict:
    last = _desk_last(request, tournament)
    focus = None
    entry_pk = whole_number(request.GET.get("entry"), least=1)
    if entry_pk is not None:
        # The console's "Rebuy" after a bust-out: the player is looked up at once.
        focus = (
            Entry.objects.select_related("player")
            .filter(tournament=tournament, pk=entry_pk)
            .first()
        )
    return {
        "tournament": tournament,
        "summary": tournament_summary(tournament),
        "purchase": desk_purchase(tournament, request.GET.get("purchase")),
        "focus_entry": focus,
        "recent": _recent_entries(tournament),
        "refunded": refunded_entry(tournament, request.GET.get("refunded")),
        "waiting": entry_waiting_list(tournament),
        "last": last,
        "new_player_form": NewPlayerForm(),
        "methods": LedgerEntry.Method.choices,
        "late_registration": _late_registration(tournament),
        "shortcuts": [
            ("/", _("Search")),
            ("↑ ↓", _("Choose")),
            ("Enter", _("Register")),
            ("N", _("New player")),
            ("Alt+P", _("Print seat card")),
        ]
        + (
            [("Alt+R", _("Rebuy")), ("Alt+A", _("Add-on"))]
            if tournament.rebuy_until_level is not None or tournament.addon_level is not None
            else []
        ),
    }


@role_required("desk")
def desk_search(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    query = request.GET.get("q", "").strip()
    players = player_search(query, limit=8) if query else []
    live = {
        e.player_id: e
        for e in desk_entries(
            tournament,
            Entry.objects.filter(
                tournament=tournament,
                player__in=players,
                status__in=(Entry.Status.ACTIVE, Entry.Status.WAITING),
            ),
        )
    }
    bans = players_tournament_bans(players, tournament, timezone.now())
    results = [
        {
            "player": p,
            "live": live.get(p.pk),
            "entry_status": live[p.pk].status if p.pk in live else None,
            "ban": bans.get(p.pk),  # a season ban only in its season
        }
        for p in players
    ]
    desk_purchase_rows(tournament, results)
    return render(
        request,
        "tourney/_desk_results.html",
        {"tournament": tournament, "results": results, "query": query},
    )


def _after_registration(request, tournament: Tournament, entry: Entry | None):
    url = reverse("tourney:desk", args=[tournament.pk])
    return redirect(f"{url}?last={entry.pk}" if entry else url)


@role_required("desk")
@require_POST
def desk_register(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = RegisterForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a player to register."))
        return _after_registration(request, tournament, None)
    entry = run_service(
        request,
        lambda: entry_register(
            actor=request.user,
            tournament_id=tournament.pk,
            player_id=form.cleaned_data["player_id"],
            method=form.cleaned_data["method"],
        ),
    )
    return _after_registration(request, tournament, entry)


@role_required("desk")
@require_POST
def desk_new_player(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = NewPlayerForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {' '.join(errors)}")
        return _after_registration(request, tournament, None)
    data = form.cleaned_data
    duplicates = (
        []
        if data["create_anyway"]
        else player_duplicates(data["name"], data["phone"], data["email"])
    )
    if duplicates:
        # Offer the player who is already there first: a second, identical player splits his
        # history, bans and results (issue 13).
        context = _desk_context(request, tournament)
        context.update(duplicates=duplicates, new_player=data, new_player_form=form)
        return render(request, "tourney/desk.html", context, status=409)

    def create_and_register() -> Entry:
        # One player row even when registration is refused is acceptable: the player exists.
        player = player_create(
            actor=request.user,
            name=data["name"],
            nickname=data["nickname"],
            phone=data["phone"],
            email=data["email"],
        )
        return entry_register(
            actor=request.user,
            tournament_id=tournament.pk,
            player_id=player.pk,
            method=data["method"],
        )

    entry = run_service(request, create_and_register)
    return _after_registration(request, tournament, entry)


def _entry_for_print(tournament_id: int, entry_id: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player", "tournament", "tournament_table"),
        tournament_id=tournament_id,
        pk=entry_id,
    )


@role_required("desk")
def seat_card(request, tournament_id: int, entry_id: int):
    entry = _entry_for_print(tournament_id, entry_id)
    return render(
        request, "tourney/seat_card.html", {"entry": entry, "tournament": entry.tournament}
    )


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
        "at_end": not over
        and clock["next_period"] is None
        and clock["status"] in ("running", "paused", "overtime"),
        "strings": _end_strings(),
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
    return {
        "eliminates": rules.absent_policy == "eliminate",
        "level": rules.absent_eliminate_after_levels,
        "applied": tournament.absent_deadline_applied_at is not None,
        "absent": [e for e in seated if e.absent_since is not None],
        "present": [e for e in seated if e.absent_since is None],
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


@role_required("director")
def audit_log(request):
    entries = AuditEntry.objects.select_related("actor", "tournament")
    filters = {
        "tournament": request.GET.get("tournament", ""),
        "action": request.GET.get("action", ""),
        "actor": request.GET.get("actor", ""),
    }
    tournament_pk = whole_number(filters["tournament"], least=1)
    if tournament_pk is not None:
        entries = entries.filter(tournament_id=tournament_pk)
    if filters["action"]:
        entries = entries.filter(action__startswith=filters["action"])
    if filters["actor"]:
        entries = entries.filter(actor_name__icontains=filters["actor"])
    page = Paginator(entries, 50).get_page(request.GET.get("page"))
    page.object_list = undo_links(page.object_list, request.user)
    actions = AuditEntry.objects.order_by("action").values_list("action", flat=True).distinct()
    return render(
        request,
        "tourney/audit_log.html",
        {
            "page": page,
            "filters": filters,
            "actions": list(actions),
            "tournaments": Tournament.objects.all()[:100],
        },
    )
