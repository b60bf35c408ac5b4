"""The home page: the tournaments, and creating one."""

from django.db.models import F
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables.cash.selectors import rooms_cash
from tourney.core import roles
from tourney.domain.purchases import MONEY_FIELDS, MoneySettings
from tourney.models import Game, GameLimit, Tournament
from tourney.sit_and_go.views import series_rows
from tourney.system.pages import role_required, run_service
from tourney.tournaments.forms import TournamentForm, satellite_terms
from tourney.tournaments.selectors import tournament_summary
from tourney.tournaments.usecases import tournament_create


def _home_page(request, form: TournamentForm | None, status: int = 200):
    """Today and upcoming (by start, unscheduled last), then the finished ones (latest first)."""
    live = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)
    # A sit-and-go is listed with its series (the card beside), not one by one.
    events = Tournament.objects.filter(sng_series__isnull=True)
    upcoming = events.filter(status__in=live).order_by(
        F("scheduled_start").asc(nulls_last=True), "-created_at", "-id"
    )[:50]
    finished = events.exclude(status__in=live).order_by(
        F("finished_at").desc(nulls_last=True), "-created_at", "-id"
    )[:30]
    return render(
        request,
        "tourney/home.html",
        {
            "tournaments": [(t, tournament_summary(t)) for t in upcoming],
            "finished": [(t, tournament_summary(t)) for t in finished],
            "form": form,
            "sng_rows": series_rows(),
            "cash_rooms": rooms_cash(),
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
        bounty = (
            {
                "kind": data["bounty_kind"],
                "amount": data["bounty_amount"] or 0,
                "cash_percent": 50
                if data["bounty_cash_percent"] is None
                else data["bounty_cash_percent"],
                "phase_players": data["bounty_phase_players"],
                "phase_level": data["bounty_phase_level"],
            }
            if data["bounty_kind"]
            else None
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
                bounty=bounty,
                satellite=satellite_terms(data),
                game=data["game"] or Game.HOLDEM,
                game_limit=data["game_limit"] or GameLimit.NO_LIMIT,
            ),
            _("Tournament created."),
        )
        if tournament:
            return redirect("tourney:console", tournament.pk)
    return _home_page(request, form, status=422)
