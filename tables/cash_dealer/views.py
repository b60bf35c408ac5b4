"""The cash table's dealer page (docs/rules.md §20.5-§20.6): the seats with the button and the
blinds, who is away and what he owes, who must post or wait (a new player), the next hand,
and the cash clock (a player thinking; the clock called after the house's seconds)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from infra.web.schema_types import whole_number
from tables.cash.selectors import cash_rules, cash_version, stakes_name
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


@role_required("floor")
def dealer(request, room_id: int, cash_table_id: int):
    table = get_object_or_404(CashTable, pk=cash_table_id, room_id=room_id, status="open")
    rules = cash_rules(table.room)
    return render(
        request,
        "tables/cash/dealer.html",
        {
            "table": table,
            "stakes": stakes_name(table),
            "rows": _seat_rows(table),
            "clock_strings": {
                "thinking": _("Thinking"),
                "may_call": _("The clock may be called"),
                "called": _("Clock called: act"),
                "expired": _("Time is up: the hand is dead"),
            },
            "config": {
                "version_url": reverse("tables:cash_version", args=[room_id]),
                "version": cash_version(room_id),
                "clock_after": rules.clock_after_seconds,
                "clock_seconds": rules.clock_seconds,
            },
        },
    )


@role_required("floor")
@require_POST
def dealer_act(request, room_id: int, cash_table_id: int):
    table = get_object_or_404(CashTable, pk=cash_table_id, room_id=room_id)
    seat = whole_number(request.POST.get("seat"), least=1)
    user, action = request.user, request.POST.get("action")
    actions = {
        "next": lambda: cash_hand_next(actor=user, cash_table_id=table.pk),
        "button": seat and (lambda: cash_button_set(actor=user, cash_table_id=table.pk, seat=seat)),
        "posted": seat
        and (lambda: cash_seat_posted(actor=user, cash_table_id=table.pk, seat=seat)),
        "away": seat
        and (lambda: cash_seat_away(actor=user, cash_table_id=table.pk, seat=seat, away=True)),
        "back": seat
        and (lambda: cash_seat_away(actor=user, cash_table_id=table.pk, seat=seat, away=False)),
    }
    if actions.get(action):
        run_service(request, actions[action])
    else:
        messages.error(request, _("This cannot be done from here."))
    return redirect(reverse("tables:cash_dealer", args=[room_id, table.pk]))
