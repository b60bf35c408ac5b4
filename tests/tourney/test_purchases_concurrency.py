"""Two desks taking a rebuy for the same player at the same instant serialize on the tournament
row: one rebuy is taken, the other is refused by the rules, nothing is lost or doubled."""

import random

import pytest

from clocks.clock.usecases import clock_operate
from tables.seating.usecases import seats_draw
from tests.factories import run_at_once
from tourney.core.errors import TourneyError
from tourney.domain.purchases import MoneySettings
from tourney.eliminations.usecases import eliminations_record
from tourney.models import ChipPurchase, Elimination, Entry, LedgerEntry, Player
from tourney.purchases.usecases import entry_rebuy
from tourney.registration.usecases import entry_register
from tourney.tournaments.usecases import tournament_create


def _running(director, room, structure, condition: str, rebuy_max: int):
    tournament = tournament_create(
        actor=director,
        name="Rebuy rush",
        structure_id=structure.pk,
        starting_stack=1_000,
        buy_in=100,
        fee=10,
        room_id=room.pk,
        money=MoneySettings(
            rebuy_until_level=4,
            rebuy_max=rebuy_max,
            rebuy_condition=condition,
            rebuy_buy_in=100,
            rebuy_fee=10,
            rebuy_chips=1_000,
        ),
    )
    for i in range(4):
        player = Player.objects.create(name=f"R{i}", search_text=f"r{i}")
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(1))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    return tournament, Entry.objects.filter(tournament=tournament).order_by("number").first()


def _both(director, tournament, entry, **kwargs) -> list[str]:
    codes: list[str] = []

    def attempt():
        try:
            entry_rebuy(actor=director, tournament_id=tournament.pk, entry_id=entry.pk, **kwargs)
            codes.append("ok")
        except TourneyError as exc:
            codes.append(exc.code)

    assert run_at_once([attempt, attempt]) == []
    return sorted(codes)


@pytest.mark.django_db(transaction=True)
def test_two_desks_one_rebuy_left(director, room, structure):
    tournament, entry = _running(director, room, structure, "at_most_start", rebuy_max=1)
    assert _both(director, tournament, entry, stack=10) == ["ok", "rebuy_limit"]
    assert ChipPurchase.objects.filter(entry=entry).count() == 1
    assert LedgerEntry.objects.filter(entry=entry, purpose="rebuy").count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_desks_reviving_the_same_bust(director, room, structure):
    tournament, entry = _running(director, room, structure, "busted", rebuy_max=0)
    eliminations_record(
        actor=director, tournament_id=tournament.pk, eliminations=[(entry.pk, None)]
    )
    assert _both(director, tournament, entry) == ["ok", "rebuy_not_allowed"]
    entry.refresh_from_db()
    assert entry.status == "active"
    assert ChipPurchase.objects.filter(entry=entry).count() == 1
    assert Elimination.objects.filter(entry=entry, undone_at__isnull=True).count() == 0
