"""Cancelling an event through the API (docs/rules.md §18): before the start every buy-in and
fee goes back as paid (a ticket to its holder); after it under each settlement (refund, chip
count, equal) the ledger balances to the unit; the undo until the first payment; the
refusals; every screen's data says it."""

import pytest
from django.utils import timezone

from tests.conftest import friday_deepstack, seat_players
from tests.factories import bust, start
from tourney.models import AuditEntry, Entry, LedgerEntry, Ticket, Tournament

pytestmark = pytest.mark.django_db

REASON = "Áramszünet a teremben"  # a power cut in the room


def _ledger_total(tournament, **filters) -> int:
    rows = LedgerEntry.objects.filter(tournament=tournament, **filters)
    return sum(rows.values_list("amount", flat=True))


def _count(api, tournament, counts) -> None:
    r = api.put(f"/tournaments/{tournament.pk}/chip-counts", {"counts": counts})
    assert r.status_code == 200, r.json()


def _pay_everyone(api, tournament) -> list[dict]:
    plan = api.get(f"/tournaments/{tournament.pk}/cancellation").json()
    paid = []
    for row in plan["entries"]:
        r = api.post(f"/tournaments/{tournament.pk}/cancel/entries/{row['entry_id']}/pay")
        assert r.status_code == 201, r.json()
        assert r.json()["amount"] == row["amount"]
        paid.append(r.json())
    return paid


def test_before_the_start_every_buy_in_and_fee_goes_back(api, tournament):
    ids = seat_players(api, tournament, ["Őri Zsolt", "Ádám Éva", "Kovács Péter"])
    r = api.post(f"/tournaments/{tournament.pk}/cancel", {"reason": REASON, "settlement": "equal"})
    assert r.status_code == 200, r.json()
    assert r.json()["status"] == "cancelled"
    assert r.json()["cancel_reason"] == REASON
    plan = api.get(f"/tournaments/{tournament.pk}/cancellation").json()
    assert plan["settlement"] == "refund"  # before the start it is always a refund
    assert [row["amount"] for row in plan["entries"]] == [12_000] * 3
    assert plan["owed"] == 36_000 and plan["undoable"]
    _pay_everyone(api, tournament)
    assert _ledger_total(tournament) == 0  # every unit back
    plan = api.get(f"/tournaments/{tournament.pk}/cancellation").json()
    assert plan["owed"] == 0 and plan["paid"] == 36_000 and not plan["undoable"]
    again = api.post(f"/tournaments/{tournament.pk}/cancel/entries/{ids['Őri Zsolt']}/pay")
    assert again.status_code == 409 and again.json()["code"] == "already_paid"
    undo = api.post(f"/tournaments/{tournament.pk}/cancel/undo")
    assert undo.status_code == 409 and undo.json()["code"] == "settlement_paid"


def test_the_undo_puts_the_event_back_until_the_first_payment(api, tournament):
    seat_players(api, tournament, ["Őri Zsolt", "Ádám Éva", "Kovács Péter"])
    start(api, tournament)
    assert api.post(f"/tournaments/{tournament.pk}/cancel", {"reason": REASON}).status_code == 409
    # Rimóc settles by chip count: the stacks are counted first.
    entries = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    counts = [{"entry_id": e.pk, "chips": 40_000} for e in entries]
    _count(api, tournament, counts)
    r = api.post(f"/tournaments/{tournament.pk}/cancel", {"reason": REASON})
    assert r.status_code == 200, r.json()
    clock = api.get(f"/tournaments/{tournament.pk}/clock").json()
    assert clock["status"] == "finished"
    refused = api.post(f"/tournaments/{tournament.pk}/eliminations", {"eliminations": []})
    assert refused.status_code in (409, 422)
    undo = api.post(f"/tournaments/{tournament.pk}/cancel/undo")
    assert undo.status_code == 200, undo.json()
    assert undo.json()["status"] == "running" and undo.json()["cancel_reason"] is None
    assert api.get(f"/tournaments/{tournament.pk}/clock").json()["status"] == "running"
    assert list(
        AuditEntry.objects.filter(tournament=tournament, action__startswith="tournament.cancel")
        .order_by("id")
        .values_list("action", flat=True)
    ) == ["tournament.cancel", "tournament.cancel_undo"]
    again = api.post(f"/tournaments/{tournament.pk}/cancel/undo")
    assert again.status_code == 409 and again.json()["code"] == "not_cancelled"


def _running_with_one_out(api, tournament, names):
    ids = seat_players(api, tournament, names)
    start(api, tournament)
    bust(api, tournament, (ids[names[-1]], None))
    return ids


@pytest.mark.parametrize(
    ("settlement", "expected"),
    [
        # 4 x 10,000 in the pool, 3 left, payouts for 4 entries: 1st place only (40,000).
        ("chip_count", {"A": 20_000, "B": 12_000, "C": 8_000}),
        ("equal", {"A": 13_334, "B": 13_333, "C": 13_333}),
        ("refund", {"A": 12_000, "B": 12_000, "C": 12_000, "D": 12_000}),
    ],
)
def test_after_the_start_each_settlement_balances_the_ledger(
    api, tournament, payout_templates, settlement, expected
):
    ids = _running_with_one_out(api, tournament, ["A", "B", "C", "D"])
    counts = [
        {"entry_id": ids["A"], "chips": 80_000},
        {"entry_id": ids["B"], "chips": 48_000},
        {"entry_id": ids["C"], "chips": 32_000},
    ]
    _count(api, tournament, counts)
    r = api.post(
        f"/tournaments/{tournament.pk}/cancel", {"reason": REASON, "settlement": settlement}
    )
    assert r.status_code == 200, r.json()
    plan = api.get(f"/tournaments/{tournament.pk}/cancellation").json()
    names = {v: k for k, v in ids.items()}
    assert {names[row["entry_id"]]: row["amount"] for row in plan["entries"]} == expected
    _pay_everyone(api, tournament)
    prize_money = _ledger_total(tournament, kind__in=("buy_in", "refund_buy_in"))
    paid_out = -_ledger_total(tournament, kind="payout")
    if settlement == "refund":
        assert _ledger_total(tournament) == 0
    else:
        assert prize_money == 40_000 and paid_out == 40_000  # the pool, to the unit
        assert _ledger_total(tournament, kind__in=("fee", "refund_fee")) == 8_000  # the house's


def test_a_payment_to_the_wrong_entry_is_taken_back(api, tournament):
    ids = seat_players(api, tournament, ["Őri Zsolt", "Ádám Éva"])
    api.post(f"/tournaments/{tournament.pk}/cancel", {"reason": REASON})
    base = f"/tournaments/{tournament.pk}/cancel/entries/{ids['Ádám Éva']}/pay"
    assert api.post(base).status_code == 201
    undone = api.post(base + "/undo")
    assert undone.status_code == 200, undone.json()
    row = next(r for r in undone.json()["entries"] if r["entry_id"] == ids["Ádám Éva"])
    assert not row["paid"] and undone.json()["undoable"]
    assert _ledger_total(tournament) == 24_000
    again = api.post(base)
    assert again.status_code == 201 and again.json()["receipt_number"].endswith("C2")
    assert api.post(base + "/undo").status_code == 200
    assert api.post(base + "/undo").json()["code"] == "not_paid"


def test_refusals_change_nothing(api, api_as, tournament):
    ids = _running_with_one_out(api, tournament, ["A", "B", "C"])
    url = f"/tournaments/{tournament.pk}/cancel"
    for body, code in [
        ({"reason": ""}, 422),
        ({"reason": "x\x00"}, 422),
        ({"reason": "x" * 301}, 422),
        ({"reason": "storm", "settlement": "coin_flip"}, 422),
        ({"reason": "storm", "refund": True}, 422),
        (["storm"], 422),
    ]:
        assert api.post(url, body).status_code == code, body
    not_counted = api.post(url, {"reason": "storm"})  # Rimóc: chip_count, nobody counted
    assert not_counted.status_code == 409 and not_counted.json()["code"] == "chips_not_counted"
    assert api_as("floor").post(url, {"reason": "storm", "settlement": "equal"}).status_code == 403
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert not AuditEntry.objects.filter(action="tournament.cancel").exists()
    assert api.post(f"{url}/entries/{ids['A']}/pay").json()["code"] == "not_cancelled"


def test_a_finished_event_is_not_cancelled(api, tournament, payout_templates):
    ids = _running_with_one_out(api, tournament, ["A", "B", "C"])
    bust(api, tournament, (ids["B"], None))  # A wins: over
    r = api.post(f"/tournaments/{tournament.pk}/cancel", {"reason": REASON})
    assert r.status_code == 409 and r.json()["code"] == "tournament_over"


def test_a_ticket_goes_back_to_its_holder(api, director, room, structure, tournament):
    satellite = friday_deepstack(director, structure, room, name="Satellite")
    won = seat_players(api, satellite, ["Őri Zsolt"])["Őri Zsolt"]
    source = Entry.objects.get(pk=won)
    now = timezone.now()
    ticket = Ticket.objects.create(
        player=source.player,
        source=satellite,
        source_entry=source,
        target=tournament,
        value=12_000,
        created_at=now,
        changed_at=now,
    )
    player = source.player
    r = api.post(
        f"/tournaments/{tournament.pk}/entries", {"player_id": player.pk, "ticket_id": ticket.pk}
    )
    assert r.status_code == 201, r.json()
    api.post(f"/tournaments/{tournament.pk}/cancel", {"reason": REASON})
    plan = api.get(f"/tournaments/{tournament.pk}/cancellation").json()
    assert plan["entries"][0]["by_ticket"] and plan["entries"][0]["amount"] == 12_000
    _pay_everyone(api, tournament)
    ticket.refresh_from_db()
    assert ticket.status == Ticket.Status.ACTIVE and ticket.entry_id is None
    assert _ledger_total(tournament) == 0


def test_the_public_page_and_the_dealer_link_say_why(api, tournament, client):
    from tables.dealer_links.selectors import dealer_token
    from tourney.public_page.selectors import public_token

    seat_players(api, tournament, ["Őri Zsolt", "Ádám Éva", "Kovács Péter"])
    start(api, tournament)
    api.post(f"/tournaments/{tournament.pk}/cancel", {"reason": REASON, "settlement": "equal"})
    tournament.refresh_from_db()
    public = client.get(f"/public/{public_token(tournament)}/").content.decode()
    assert REASON in public
    state = client.get(f"/dealer/{dealer_token(tournament.pk, 1, 0)}/state.json").json()
    assert REASON in state["over"]
