"""Hypothesis: whatever the desk does (registrations, refunds, rebuys, add-ons, undos, bust-outs,
re-entries, the clock moving to the add-on break), the prize pool is the sum of the prize part
of the ledger, that sum is what the standing entries and purchases cost, and the chips in play
are the full stacks plus the chips bought."""

import random

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clocks.clock.usecases import clock_operate
from tables.seating.usecases import seats_draw
from tourney.core.errors import TourneyError
from tourney.domain.purchases import MoneySettings
from tourney.eliminations.usecases import eliminations_record
from tourney.models import ChipPurchase, Entry, LedgerEntry, Player
from tourney.purchases.usecases import chip_purchase_undo, entry_addon, entry_rebuy
from tourney.registration.usecases import entry_register, entry_unregister
from tourney.tournaments.selectors import tournament_summary
from tourney.tournaments.usecases import tournament_create

pytestmark = pytest.mark.django_db

OPS = ("register", "refund", "rebuy", "rebuy_busted", "addon", "undo", "bust", "reenter", "break")


def _tournament(director, structure, room, guarantee: int):
    return tournament_create(
        actor=director,
        name="Invariants",
        structure_id=structure.pk,
        starting_stack=10_000,
        buy_in=5_000,
        fee=500,
        room_id=room.pk,
        house_rules="tda2024",
        rules_overrides={"reentry_max": 2},
        money=MoneySettings(
            rebuy_until_level=4,
            rebuy_condition="at_most_start",
            rebuy_buy_in=4_000,
            rebuy_fee=400,
            rebuy_chips=10_000,
            addon_level=4,
            addon_buy_in=3_000,
            addon_fee=300,
            addon_chips=15_000,
            guarantee=guarantee,
        ),
    )


def _check(tournament) -> None:
    tournament.refresh_from_db()
    summary = tournament_summary(tournament)
    prize_rows = (
        LedgerEntry.objects.filter(
            tournament=tournament,
            kind__in=(LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.REFUND_BUY_IN),
        )
        .exclude(purpose=LedgerEntry.Purpose.PRIZE)
        .exclude(entry__status=Entry.Status.WAITING)
        .aggregate(v=Sum("amount"))["v"]
        or 0
    )
    playing = Entry.objects.filter(
        tournament=tournament, status__in=(Entry.Status.ACTIVE, Entry.Status.ELIMINATED)
    ).count()
    standing = ChipPurchase.objects.filter(tournament=tournament, undone_at__isnull=True)
    bought_money = standing.aggregate(v=Sum("buy_in"))["v"] or 0
    bought_chips = standing.aggregate(v=Sum("chips"))["v"] or 0
    assert summary.prize_money == prize_rows == playing * tournament.buy_in + bought_money
    assert summary.prize_pool == max(prize_rows, tournament.guarantee)
    assert summary.overlay == summary.prize_pool - prize_rows
    assert summary.total_chips == playing * tournament.starting_stack + bought_chips
    assert summary.rebuys + summary.addons == standing.count()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    before=st.integers(min_value=2, max_value=5),
    guarantee=st.sampled_from([0, 40_000]),
    ops=st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 50)), max_size=18),
)
def test_prize_pool_is_the_prize_part_of_the_ledger(
    director, structure, room, before, guarantee, ops
):
    rng = random.Random(7)
    tournament = _tournament(director, structure, room, guarantee)
    tid = tournament.pk

    def new_player():
        n = Player.objects.count() + 1
        return Player.objects.create(name=f"Inv {n}", search_text=f"inv {n}")

    def entries(*statuses):
        return list(Entry.objects.filter(tournament_id=tid, status__in=statuses).order_by("pk"))

    for _i in range(before + 1):
        entry_register(actor=director, tournament_id=tid, player_id=new_player().pk, rng=rng)
    entry_unregister(actor=director, tournament_id=tid, entry_id=entries("active")[0].pk)
    seats_draw(actor=director, tournament_id=tid, rng=rng)
    clock_operate(actor=director, tournament_id=tid, operation="start")
    _check(tournament)
    for op, pick in ops:
        active = entries("active")
        out = entries("eliminated")
        try:
            if op == "register":
                entry_register(
                    actor=director, tournament_id=tid, player_id=new_player().pk, rng=rng
                )
            elif op == "refund" and active:
                entry_unregister(
                    actor=director, tournament_id=tid, entry_id=active[pick % len(active)].pk
                )
            elif op == "rebuy" and active:
                entry = active[pick % len(active)]
                entry_rebuy(actor=director, tournament_id=tid, entry_id=entry.pk, stack=pick * 400)
            elif op == "rebuy_busted" and out:
                entry_rebuy(actor=director, tournament_id=tid, entry_id=out[pick % len(out)].pk)
            elif op == "addon" and active:
                entry_addon(
                    actor=director, tournament_id=tid, entry_id=active[pick % len(active)].pk
                )
            elif op == "undo":
                standing = list(ChipPurchase.objects.filter(tournament_id=tid, undone_at=None))
                if standing:
                    purchase = standing[pick % len(standing)]
                    chip_purchase_undo(actor=director, tournament_id=tid, purchase_id=purchase.pk)
            elif op == "bust" and len(active) > 2:
                entry = active[pick % len(active)]
                eliminations_record(
                    actor=director, tournament_id=tid, eliminations=[(entry.pk, None)]
                )
            elif op == "reenter" and out:
                player_id = out[pick % len(out)].player_id
                entry_register(actor=director, tournament_id=tid, player_id=player_id, rng=rng)
            elif op == "break":
                clock_operate(actor=director, tournament_id=tid, operation="jump", period_index=4)
        except TourneyError:
            pass  # a refusal changes nothing; the invariant below still holds
        _check(tournament)
