"""tournament_summary: the counts and money of one tournament, as every page and screen reads
them (tourney/tournaments/selectors.py, SUMMARY_SQL), on a worked example with every kind of row."""

import pytest
from django.utils import timezone

from tourney.models import ChipPurchase, Entry, LedgerEntry, Player
from tourney.tournaments.selectors import tournament_summary


def _entry(tournament, number: int, status: str) -> Entry:
    player = Player.objects.create(name=f"Summary {number}", search_text=f"summary {number}")
    return Entry.objects.create(
        tournament=tournament,
        player=player,
        number=number,
        status=status,
        created_at=timezone.now(),
    )


def _money(tournament, entry, kind, amount, purpose=LedgerEntry.Purpose.ENTRY, receipt=""):
    return LedgerEntry.objects.create(
        tournament=tournament,
        entry=entry,
        kind=kind,
        purpose=purpose,
        amount=amount,
        at=timezone.now(),
        receipt_number=receipt or f"S-{LedgerEntry.objects.count() + 1}",
    )


def _chips(tournament, entry, kind, chips, undone=False) -> None:
    ChipPurchase.objects.create(
        tournament=tournament,
        entry=entry,
        kind=kind,
        chips=chips,
        buy_in=0,
        fee=0,
        at=timezone.now(),
        undone_at=timezone.now() if undone else None,
    )


@pytest.mark.django_db
def test_every_kind_of_row_counts_where_it_should(tournament):
    Kind, Status = LedgerEntry.Kind, Entry.Status
    playing = [_entry(tournament, n, Status.ACTIVE) for n in (1, 2, 3)]
    out = _entry(tournament, 4, Status.ELIMINATED)
    waiting = _entry(tournament, 5, Status.WAITING)
    other = tournament.__class__.objects.create(
        name="Another night",
        room=tournament.room,
        structure=tournament.structure,
        starting_stack=1,
        buy_in=1,
        fee=1,
    )
    _entry(other, 1, Status.ACTIVE)  # another tournament's rows count not
    for entry in [*playing, out, waiting]:  # each paid 10,000 + 2,000 (the waiting one too)
        _money(tournament, entry, Kind.BUY_IN, 10_000)
        _money(tournament, entry, Kind.FEE, 2_000)
    _money(tournament, playing[2], Kind.REFUND_BUY_IN, -10_000)  # refunded, still listed
    _money(tournament, playing[2], Kind.REFUND_FEE, -2_000)
    _money(tournament, playing[0], Kind.BUY_IN, 5_000, LedgerEntry.Purpose.REBUY)
    _money(tournament, out, Kind.PAYOUT, -20_000, LedgerEntry.Purpose.PRIZE)  # not a buy-in
    _money(tournament, None, Kind.BUY_IN, 1_000)  # a row of no entry: the house's, counted
    _chips(tournament, playing[0], ChipPurchase.Kind.REBUY, 40_000)
    _chips(tournament, playing[1], ChipPurchase.Kind.ADDON, 50_000)
    _chips(tournament, playing[1], ChipPurchase.Kind.REBUY, 40_000, undone=True)  # counts not

    summary = tournament_summary(tournament)

    assert (summary.players_remaining, summary.entries, summary.waiting) == (3, 4, 1)
    # 4 entries in play or out x 10,000, less a refund, plus a rebuy's 5,000 and the 1,000
    assert summary.prize_money == 4 * 10_000 - 10_000 + 5_000 + 1_000
    assert summary.fees == 4 * 2_000 - 2_000
    assert (summary.rebuys, summary.addons, summary.purchased_chips) == (1, 1, 90_000)
    starting = tournament.starting_stack
    assert summary.total_chips == 4 * starting + 90_000
    assert summary.average_stack == (4 * starting + 90_000) // 3


@pytest.mark.django_db
def test_a_tournament_with_no_rows_has_zeros(tournament):
    summary = tournament_summary(tournament)
    assert (summary.entries, summary.players_remaining, summary.waiting) == (0, 0, 0)
    assert (summary.prize_money, summary.fees, summary.purchased_chips) == (0, 0, 0)
    assert summary.average_stack == 0
