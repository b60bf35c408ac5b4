"""The cash table's dealer page (docs/rules.md §20.5-§20.6): the seats with the button and the
blinds, who is away and what he owes, who must post or wait (a new player), the next hand,
and the cash clock (a player thinking; the clock called after the house's seconds)."""

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from infra.web.schema_types import whole_number
from tables.cash.selectors import cash_rules, cash_version, stakes_name
from tables.cash_dealer.selectors import dealer_token, table_of_dealer_token
from tables.cash_dealer.usecases import cash_button_set, cash_hand_next, cash_seat_posted
from tables.cash_seats.usecases import cash_seat_away
from tables.domain.cash import new_player_blind
from tables.models import CashSeat, CashTable
from tourney.system.pages import role_required, run_service


def _seat_rows(table: CashTable) -> list[dict]:
    taken = {s.seat: s for s in CashSeat.objects.filter(cash_table=table).select_related("player")}
    rows = []
    for n in range(1, table.seats + 1):
        s = taken.get(n)
        waits = None
        if s is not None and s.new_player and s.away_since is None and table.button_seat:
            waits = new_player_blind(n, table.button_seat, table.big_blind_seat, table.seats)
        rows.append({"seat": n, "taken": s, "waits": waits, "owes": sorted(s.owes) if s else []})
    return rows


def _page(request, table: CashTable, act_url: str, link: str | None):
    rules = cash_rules(table.room)
    return render(
        request,
        "tables/cash/dealer.html",
        {
            "table": table,
            "stakes": stakes_name(table),
            "rows": _seat_rows(table),
            "act_url": act_url,
            "dealer_link": link,
            "clock_strings": {
                "thinking": _("Thinking"),
                "may_call": _("The clock may be called"),
                "called": _("Clock called: act"),
                "expired": _("Time is up: the hand is dead"),
            },
            "config": {
                "version_url": reverse("tables:cash_version_link", args=[dealer_token(table)]),
                "version": cash_version(table.room_id),
                "clock_after": rules.clock_after_seconds,
                "clock_seconds": rules.clock_seconds,
            },
        },
    )


def _act(request, table: CashTable, actor) -> None:
    seat = whole_number(request.POST.get("seat"), least=1)
    action = request.POST.get("action")
    t = table.pk
    actions = {
        "next": lambda: cash_hand_next(actor=actor, cash_table_id=t),
        "button": seat and (lambda: cash_button_set(actor=actor, cash_table_id=t, seat=seat)),
        "posted": seat and (lambda: cash_seat_posted(actor=actor, cash_table_id=t, seat=seat)),
        "away": seat
        and (lambda: cash_seat_away(actor=actor, cash_table_id=t, seat=seat, away=True)),
        "back": seat
        and (lambda: cash_seat_away(actor=actor, cash_table_id=t, seat=seat, away=False)),
    }
    if actions.get(action):
        run_service(request, actions[action])
    else:
        messages.error(request, _("This cannot be done from here."))


@role_required("floor")
def dealer(request, room_id: int, cash_table_id: int):
    table = get_object_or_404(CashTable, pk=cash_table_id, room_id=room_id, status="open")
    link = request.build_absolute_uri(
        reverse("tables:cash_dealer_link", args=[dealer_token(table)])
    )
    return _page(request, table, reverse("tables:cash_dealer_act", args=[room_id, table.pk]), link)


@role_required("floor")
@require_POST
def dealer_act(request, room_id: int, cash_table_id: int):
    table = get_object_or_404(CashTable, pk=cash_table_id, room_id=room_id)
    _act(request, table, request.user)
    return redirect(reverse("tables:cash_dealer", args=[room_id, table.pk]))


def _linked(token: str) -> CashTable:
    table = table_of_dealer_token(token)
    if table is None:
        raise Http404
    return table


@never_cache
def dealer_link(request, token: str):
    """The same page by the table's dealer link (no login: the dealer's tablet), while the
    table is open; its actions are audited as the table's dealer's."""
    table = _linked(token)
    if request.method == "POST":
        _act(request, table, None)
        return redirect(reverse("tables:cash_dealer_link", args=[token]))
    return _page(request, table, reverse("tables:cash_dealer_link", args=[token]), None)


@never_cache
def version_link(request, token: str):
    return JsonResponse({"version": cash_version(_linked(token).room_id)})
