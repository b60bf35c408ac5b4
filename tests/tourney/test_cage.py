"""Money with a safety net (issue 13 item 10): a refund by a chosen method and its undo, a prize
paid by a method and its undo, receipt numbers of their own, amounts as the venue writes them."""

import pytest
from django.db.models import Sum
from django.urls import reverse
from django.utils import translation

from infra.text.money import money_text
from tests.conftest import numbered_players, seat_players
from tests.factories import bust, results, start
from tourney.models import AuditEntry, Entry, LedgerEntry, TournamentEvent


def register(api, tournament, name, method="cash"):
    pid = api.post("/players", {"name": name}).json()["id"]
    r = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": pid, "method": method})
    assert r.status_code == 201, r.json()
    return r.json()["id"]


def ledger(entry_id):
    return list(
        LedgerEntry.objects.filter(entry_id=entry_id)
        .order_by("id")
        .values_list("kind", "amount", "method", "receipt_number")
    )


def test_a_refund_by_card_is_undone_and_refunded_again_with_receipts_of_their_own(api, tournament):
    entry = register(api, tournament, "Kovács Ádám", method="card")
    base = f"/tournaments/{tournament.pk}/entries/{entry}"
    r = api.post(f"{base}/refund", {"method": "cash"})
    assert r.status_code == 200 and r.json()["status"] == "unregistered"
    undo = api.post(f"{base}/refund/undo")
    assert undo.status_code == 200 and undo.json()["status"] == "active"
    assert api.post(f"{base}/refund").status_code == 200  # as paid: by card
    n = f"{tournament.pk}-0001"
    assert [(k, a, m, rn) for k, a, m, rn in ledger(entry)] == [
        ("buy_in", 10_000, "card", n),
        ("fee", 2_000, "card", n),
        ("refund_buy_in", -10_000, "cash", f"{n}R"),
        ("refund_fee", -2_000, "cash", f"{n}R"),
        ("buy_in", 10_000, "cash", f"{n}RU"),
        ("fee", 2_000, "cash", f"{n}RU"),
        ("refund_buy_in", -10_000, "card", f"{n}R2"),
        ("refund_fee", -2_000, "card", f"{n}R2"),
    ]
    assert AuditEntry.objects.filter(action="entry.refund_undo", target_id=entry).exists()
    assert TournamentEvent.objects.filter(kind="entry", payload__action="refund_undo").exists()


def test_refund_undo_goes_back_to_the_same_seat_after_the_draw(api, tournament):
    ids = seat_players(api, tournament, ["A", "B", "C"])
    seat = Entry.objects.get(pk=ids["B"])
    where = (seat.tournament_table_id, seat.seat)
    api.delete(f"/tournaments/{tournament.pk}/entries/{ids['B']}")
    api.post(f"/tournaments/{tournament.pk}/entries/{ids['B']}/refund/undo")
    back = Entry.objects.get(pk=ids["B"])
    assert back.status == "active" and (back.tournament_table_id, back.seat) == where


@pytest.mark.parametrize("case", ["not_refunded", "already_registered", "registration_closed"])
def test_refund_undo_refusals_change_nothing(api, tournament, case):
    entry = register(api, tournament, "Varga Ferenc")
    base = f"/tournaments/{tournament.pk}/entries/{entry}"
    if case != "not_refunded":
        api.post(f"{base}/refund")
    if case == "already_registered":
        player = Entry.objects.get(pk=entry).player_id
        api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player})
    if case == "registration_closed":
        tournament.status = "finished"
        tournament.save(update_fields=["status"])
    before = (LedgerEntry.objects.count(), AuditEntry.objects.count(), ledger(entry))
    r = api.post(f"{base}/refund/undo")
    assert r.status_code == 409 and r.json()["code"] == case
    assert (LedgerEntry.objects.count(), AuditEntry.objects.count(), ledger(entry)) == before


def test_a_refund_refuses_an_unknown_method(api, tournament):
    entry = register(api, tournament, "Mészáros Éva")
    r = api.post(f"/tournaments/{tournament.pk}/entries/{entry}/refund", {"method": "gold"})
    assert r.status_code == 422
    assert Entry.objects.get(pk=entry).status == "active"


def test_the_desk_refund_refuses_an_unknown_method_and_changes_nothing(
    api, tournament, director_client
):
    entry = register(api, tournament, "Mészáros Éva")
    url = reverse("tourney:desk_unregister", args=[tournament.pk, entry])
    response = director_client.post(url, {"method": "gold"}, follow=True)
    assert "Payment is cash, card or other." in response.content.decode()
    assert Entry.objects.get(pk=entry).status == "active"
    assert [row[1] for row in ledger(entry)] == [tournament.buy_in, tournament.fee]


def finished_field(api, tournament):
    ids = seat_players(api, tournament, numbered_players(4))
    start(api, tournament)
    for name in ("P3", "P2", "P1"):
        bust(api, tournament, (ids[name], None))
    return ids


def test_a_prize_paid_by_card_is_undone_then_paid_again(api, tournament):
    ids = finished_field(api, tournament)
    winner = ids["P0"]
    base = f"/tournaments/{tournament.pk}/results/{winner}/pay"
    paid = api.post(base, {"method": "card"})
    assert paid.status_code == 201 and paid.json()["method"] == "card"
    prize = -paid.json()["amount"]
    assert results(api, tournament)[winner]["paid"] == prize
    back = api.post(f"{base}/undo")
    assert back.status_code == 200 and back.json()["amount"] == prize
    assert back.json()["receipt_number"] == paid.json()["receipt_number"] + "R"
    assert results(api, tournament)[winner]["paid"] == 0
    assert api.post(f"{base}/undo").json()["code"] == "not_paid"
    again = api.post(base, {"method": "cash"})
    assert again.status_code == 201
    assert again.json()["receipt_number"].endswith("P2")
    total = LedgerEntry.objects.filter(entry_id=winner, kind="payout").aggregate(t=Sum("amount"))
    assert total["t"] == -prize
    assert AuditEntry.objects.filter(action="prize.pay_undo").count() == 1
    assert TournamentEvent.objects.filter(kind="payouts", payload__reason="pay_undone").exists()


def test_an_undone_payment_frees_the_payout_structure_and_the_deal(api, tournament):
    ids = finished_field(api, tournament)
    base = f"/tournaments/{tournament.pk}/results/{ids['P0']}/pay"
    api.post(base)
    refused = api.put(
        f"/tournaments/{tournament.pk}/payout-structure", {"payout_structure_id": None}
    )
    assert refused.json()["code"] == "prizes_paid"
    api.post(f"{base}/undo")
    freed = api.put(f"/tournaments/{tournament.pk}/payout-structure", {"payout_structure_id": None})
    assert freed.status_code == 200


def test_the_prize_receipt_is_the_latest_payment(api, tournament, director):
    from django.test import Client

    ids = finished_field(api, tournament)
    base = f"/tournaments/{tournament.pk}/results/{ids['P0']}/pay"
    api.post(base)
    api.post(f"{base}/undo")
    number = api.post(base).json()["receipt_number"]
    client = Client()
    client.force_login(director)
    r = client.get(reverse("payouts:prize_receipt", args=[tournament.pk, ids["P0"]]))
    assert r.status_code == 302 and r["Location"].split("?")[0].endswith(f"/receipts/{number}/")


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "12,000\xa0Ft"), ("hu", "12\xa0000\xa0Ft"), ("cs", "12\xa0000\xa0Ft")],
)
def test_amounts_are_written_as_the_venue_writes_them(language, text):
    with translation.override(language):
        assert money_text(12_000, "HUF") == text
