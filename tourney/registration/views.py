"""Pages of the registration desk, the director console and the audit log."""

from django.contrib import messages
from django.db.models import OuterRef, Subquery
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from infra.text.money import money_text
from infra.web.form_fields import first_error
from infra.web.schema_types import whole_number
from tourney.cancelling.views import cancel_panel
from tourney.models import Entry, LedgerEntry, Player, Tournament
from tourney.players.selectors import (
    member,
    player_duplicates,
    player_search,
    players_tournament_bans,
)
from tourney.players.usecases import player_create, player_membership_set
from tourney.purchases.views import desk_purchase, desk_purchase_rows
from tourney.registration.forms import MembershipForm, NewPlayerForm, RefundForm, RegisterForm
from tourney.registration.selectors import (
    late_refund_open,
    players_playing_elsewhere,
    registration_window,
)
from tourney.registration.usecases import entry_register, entry_unregister
from tourney.system.pages import role_required, run_service
from tourney.tickets.selectors import CASH_METHODS, desk_methods, ticket_to_use, tickets_for_event
from tourney.tournaments.selectors import entry_waiting_list, tournament_rules, tournament_summary


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
    player_pk = whole_number(request.GET.get("player"), least=1)
    return {
        "tournament": tournament,
        "summary": tournament_summary(tournament),
        "purchase": desk_purchase(tournament, request.GET.get("purchase")),
        "focus_entry": focus,
        # After his membership is recorded: the player looked up again, ready to register.
        "focus_player": Player.objects.filter(pk=player_pk).first() if player_pk else None,
        "recent": _recent_entries(tournament),
        "refunded": refunded_entry(tournament, request.GET.get("refunded")),
        "waiting": entry_waiting_list(tournament),
        "last": last,
        "new_player_form": NewPlayerForm(),
        "methods": desk_methods(tournament.pk),
        "refund_methods": CASH_METHODS,  # a ticket's entry gets its ticket back, whatever
        "late_registration": _late_registration(tournament),
        "cancel": cancel_panel(request, tournament),
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
    tickets = tickets_for_event(tournament.pk, [p.pk for p in players])
    elsewhere = players_playing_elsewhere([p.pk for p in players], tournament)
    members_only = tournament_rules(tournament).membership_required
    results = [
        {
            "player": p,
            "live": live.get(p.pk),
            "entry_status": live[p.pk].status if p.pk in live else None,
            "ban": bans.get(p.pk),  # a season ban only in its season
            "ticket": bool(tickets.get(p.pk)),  # a satellite's seat for this event
            "elsewhere": elsewhere.get(p.pk),  # one table at a time: the desk is warned
            "membership_needed": members_only and not member(p),
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
def desk_membership(request, tournament_id: int):
    """A members-only room: his membership number and signature recorded, the desk finds him
    again at once to register him (docs/rules.md §2.1)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = MembershipForm(request.POST)
    url = reverse("tourney:desk", args=[tournament.pk])
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(url)
    data = form.cleaned_data
    player = run_service(
        request,
        lambda: player_membership_set(
            actor=request.user,
            player_id=data["player_id"],
            membership_number=data["membership_number"],
            rules_read=data["rules_read"],
        ),
        _("Membership recorded: press Enter to register him."),
    )
    return redirect(f"{url}?player={player.pk}" if player else url)


@role_required("desk")
@require_POST
def desk_register(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = RegisterForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a player to register."))
        return _after_registration(request, tournament, None)
    player_id, method = form.cleaned_data["player_id"], form.cleaned_data["method"]
    ticket_id = None
    if method == LedgerEntry.Method.TICKET:  # his ticket for this event pays (§17.4)
        ticket_id = ticket_to_use(tournament.pk, player_id)
        if ticket_id is None:
            messages.error(request, _("This player has no ticket for this event."))
            return _after_registration(request, tournament, None)
    entry = run_service(
        request,
        lambda: entry_register(
            actor=request.user,
            tournament_id=tournament.pk,
            player_id=player_id,
            method=method,
            ticket_id=ticket_id,
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


def refund_undo_url(tournament_id: int, entry_id: int) -> str:
    return f"/api/v1/tournaments/{tournament_id}/entries/{entry_id}/refund/undo"


def entry_refundable(tournament: Tournament, entry: Entry) -> bool:
    """A waiting entry any time, a playing one until the start, a late one within the house's
    limit (entry_unregister's rule, docs/rules.md §2.2); never a Day-2 entry (§15.5)."""
    if entry.day1_entry_id is not None:
        return False
    return (
        entry.status == Entry.Status.WAITING
        or (
            entry.status == Entry.Status.ACTIVE
            and tournament.status == Tournament.Status.REGISTERING
        )
        or late_refund_open(tournament, entry)
    )


def desk_entries(tournament: Tournament, entries):
    """`entries` (a queryset) with what the desk shows on each row: `paid_method`, the last
    `refund_receipt`, `refundable`, `refund_undo_url`."""
    paid = LedgerEntry.objects.filter(
        entry=OuterRef("pk"), amount__gt=0, purpose=LedgerEntry.Purpose.ENTRY
    ).order_by("at", "id")
    refunds = LedgerEntry.objects.filter(
        entry=OuterRef("pk"), amount__lt=0, purpose=LedgerEntry.Purpose.ENTRY
    ).order_by("-at", "-id")
    rows = list(
        entries.select_related("player", "tournament_table").annotate(
            paid_method=Subquery(paid.values("method")[:1]),
            refund_receipt=Subquery(refunds.values("receipt_number")[:1]),
        )
    )
    methods = dict(LedgerEntry.Method.choices)
    for entry in rows:
        entry.refundable = entry_refundable(tournament, entry)
        entry.paid_method_label = methods.get(entry.paid_method or "", "")
        entry.refund_undo_url = refund_undo_url(tournament.pk, entry.pk)
    return rows


@role_required("desk")
@require_POST
def desk_refund(request, tournament_id: int, entry_id: int):
    """The confirmed refund (the desk's dialog sends the amount shown and the method)."""
    form = RefundForm(request.POST)
    url = reverse("tourney:desk", args=[tournament_id])
    if not form.is_valid():
        messages.error(request, next(iter(form.errors.values()))[0])
        return redirect(url)
    method = form.cleaned_data["method"] or None
    entry = run_service(
        request,
        lambda: entry_unregister(
            actor=request.user, tournament_id=tournament_id, entry_id=entry_id, method=method
        ),
    )
    if entry is None:
        return redirect(url)
    tournament = entry.tournament
    refund = LedgerEntry.objects.filter(entry=entry, amount__lt=0).order_by("-at", "-id").first()
    messages.success(
        request,
        _("Refund: %(amount)s (%(method)s) to %(name)s.")
        % {
            "amount": money_text(tournament.entry_price, tournament.currency),
            "method": refund.get_method_display().lower() if refund else "",
            "name": entry.player.name,
        },
        extra_tags=f"undo:{refund_undo_url(tournament_id, entry.pk)}",
    )
    return redirect(f"{url}?refunded={entry.pk}")


def refunded_entry(tournament: Tournament, entry_id: str | None) -> Entry | None:
    """The desk's confirmation after a refund (`?refunded=<id>`): receipt and Undo."""
    entry_pk = whole_number(entry_id, least=1)
    if entry_pk is None:
        return None
    rows = desk_entries(
        tournament,
        Entry.objects.filter(tournament=tournament, pk=entry_pk, status=Entry.Status.UNREGISTERED),
    )
    return rows[0] if rows else None
