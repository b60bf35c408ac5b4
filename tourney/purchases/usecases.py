"""Rebuys and add-ons at the desk (docs/rules.md §2.5, §2.6): chips into play, money into the
ledger, undo.

Each purchase is a `ChipPurchase` with `buy_in` and `fee` ledger rows (purpose `rebuy` or
`addon`) under one receipt number; the buy-in part goes to the prize pool, the fee to the
house. A busted player's rebuy takes back his bust-out (the elimination undo: places of later
bust-outs stay right, he keeps his seat when it is still free). A mistaken purchase is undone
with refund rows; undoing a rebuy that took back a bust-out busts the entry again, now.
"""

from django.db import transaction
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.clock.selectors import clock_for, clock_state, now_ms, structure_periods
from clocks.domain.clock import advance
from infra.text.money import money_text
from tables.models import HandReport, TournamentTable
from tourney.audit.log import audit_record, audit_text
from tourney.cage.operations import ledger_price_write
from tourney.core.errors import Conflict, InvalidInput, NotFound, refusal
from tourney.core.locks import tournament_lock
from tourney.domain.purchases import (
    AddonRules,
    EntryFacts,
    PurchaseError,
    RebuyRules,
    addon_refusal,
    rebuy_refusal,
)
from tourney.domain.receipts import REFUND, receipt_number
from tourney.domain.refusal import N_
from tourney.eliminations.follow import elimination_undo_locked, eliminations_record_locked
from tourney.events.log import event_append
from tourney.models import ChipPurchase, Elimination, Entry, LedgerEntry, Tournament
from tourney.tournaments.selectors import entry_of, tournament_rules

KIND_LETTER = {ChipPurchase.Kind.REBUY: "B", ChipPurchase.Kind.ADDON: "A"}
# Refusals that are about the request's input rather than the tournament's state.
INPUT_CODES = frozenset({"stack_required"})


def _user(actor):
    return actor if actor is not None and actor.is_authenticated else None


def _check_method(method: str) -> None:
    if method not in LedgerEntry.Method.values:
        raise InvalidInput("invalid_method", _("Payment is cash, card or other."))


def _refuse(error: PurchaseError):
    return refusal(error, InvalidInput if error.code in INPUT_CODES else Conflict)


# --- what the rules are told ----------------------------------------------------------------


def rebuy_rules(tournament: Tournament) -> RebuyRules:
    return RebuyRules(
        until_level=tournament.rebuy_until_level,
        max_per_entry=tournament.rebuy_max,
        condition=tournament.rebuy_condition,
        starting_stack=tournament.starting_stack,
        declare_before_next_hand=tournament_rules(tournament).rebuy_declare_before_next_hand,
    )


def _clock(tournament: Tournament) -> dict:
    return {
        "state": clock_state(clock_for(tournament)),
        "periods": structure_periods(tournament.structure_id),
        "now_ms": now_ms(),
    }


def _hands_after_bust(tournament: Tournament, bust: Elimination) -> int | None:
    """Hands the bust-out's table finished after the bust-out's own hand (its first report
    from the bust on, made with the bust-out or just after it, is that hand)."""
    if bust.table_number is None:
        return None
    table = TournamentTable.objects.filter(tournament=tournament, number=bust.table_number).first()
    if table is None:
        return None
    reports = HandReport.objects.filter(tournament_table=table, reported_at__gte=bust.at).count()
    return max(0, reports - 1)


def entry_facts(tournament: Tournament, entry: Entry) -> tuple[EntryFacts, Elimination | None]:
    """The entry as the purchase rules see it, and its standing bust-out if it is busted."""
    counts = ChipPurchase.objects.filter(entry=entry, undone_at__isnull=True).aggregate(
        rebuys=Count("pk", filter=Q(kind=ChipPurchase.Kind.REBUY)),
        addons=Count("pk", filter=Q(kind=ChipPurchase.Kind.ADDON)),
    )
    bust = None
    if entry.status == Entry.Status.ACTIVE and entry.tournament_table_id is not None:
        state = "playing"
    elif entry.status == Entry.Status.ELIMINATED and entry.disqualified_at is None:
        bust = Elimination.objects.filter(
            entry=entry, undone_at__isnull=True, reason=Elimination.Reason.BUST
        ).first()
        state = "busted" if bust is not None else "out"
    else:
        state = "out"
    facts = EntryFacts(
        state=state,
        rebuys=counts["rebuys"],
        addons=counts["addons"],
        hands_after_bust=_hands_after_bust(tournament, bust) if bust else None,
    )
    return facts, bust


def _status_refusal(tournament: Tournament, facts: EntryFacts) -> PurchaseError | None:
    # A tournament the last bust-out finished runs again when that bust-out is taken back.
    if tournament.status == Tournament.Status.RUNNING or (
        tournament.status == Tournament.Status.FINISHED and facts.state == "busted"
    ):
        return None
    return PurchaseError(
        "tournament_not_running", N_("Rebuys and add-ons are taken while the tournament runs.")
    )


def purchase_options(tournament: Tournament, entries: list[Entry]) -> dict[int, dict]:
    """For the desk and the console: per entry id, whether a rebuy and an add-on are possible
    now, with the refusal's sentence when not. A rebuy that only needs the player's stack is
    possible (`needs_stack`)."""
    if tournament.rebuy_until_level is None and tournament.addon_level is None:
        return {}
    clock = _clock(tournament)
    rules = rebuy_rules(tournament)
    addon = AddonRules(level=tournament.addon_level)
    options = {}
    for entry in entries:
        facts, _bust = entry_facts(tournament, entry)
        status = _status_refusal(tournament, facts)
        row = {}
        if tournament.rebuy_until_level is not None:
            error = status or rebuy_refusal(rules, facts, stack=None, **clock)
            needs_stack = error is not None and error.code == "stack_required"
            row["rebuy"] = _option(error if not needs_stack else None, needs_stack, facts)
        if tournament.addon_level is not None:
            error = status or addon_refusal(addon, facts, **clock)
            row["addon"] = _option(error, False, facts)
        options[entry.pk] = row
    return options


def _option(error: PurchaseError | None, needs_stack: bool, facts: EntryFacts) -> dict:
    detail = None
    if error is not None:
        detail = refusal(error).detail
    return {
        "allowed": error is None,
        "code": error.code if error else None,
        "detail": detail,
        "needs_stack": needs_stack,
        "revives": facts.state == "busted",
    }


# --- receipts and output ------------------------------------------------------------------


def purchase_receipt_number(purchase: ChipPurchase, ordinal: int | None = None) -> str:
    """`<tournament>-<entry number>-B<n>` for the entry's n-th rebuy (A for add-ons), undone
    ones counted, so every purchase has its own number; its refund adds `R`."""
    if ordinal is None:
        ordinal = ChipPurchase.objects.filter(
            entry_id=purchase.entry_id, kind=purchase.kind, pk__lte=purchase.pk
        ).count()
    letter = KIND_LETTER[purchase.kind]
    return receipt_number(purchase.tournament_id, purchase.entry.number, f"-{letter}{ordinal}")


def _ms(dt) -> int | None:
    return int(dt.timestamp() * 1000) if dt else None


def chip_purchase_out(purchase: ChipPurchase) -> dict:
    """The API row of a purchase, with its receipt and the sentence the desk shows."""
    entry = purchase.entry
    receipt = purchase_receipt_number(purchase)
    rows = list(purchase.ledger.all())
    paid = [r for r in rows if r.amount > 0]
    args = [purchase.tournament_id]
    price = purchase.buy_in + purchase.fee
    summary = (
        _("Rebuy for %(name)s: %(chips)s chips, %(price)s paid")
        if purchase.kind == ChipPurchase.Kind.REBUY
        else _("Add-on for %(name)s: %(chips)s chips, %(price)s paid")
    ) % {
        "name": entry.player.name,
        "chips": number_format(purchase.chips, force_grouping=True),
        "price": money_text(price, purchase.tournament.currency),
    }
    return {
        "id": purchase.pk,
        "kind": purchase.kind,
        "entry_id": entry.pk,
        "entry_number": entry.number,
        "player_id": entry.player_id,
        "player_name": entry.player.name,
        "chips": purchase.chips,
        "buy_in": purchase.buy_in,
        "fee": purchase.fee,
        "price": price,
        "method": paid[0].method if paid else None,
        "receipt_number": receipt,
        "refund_receipt_number": receipt + REFUND if purchase.undone_at else None,
        "period_index": purchase.period_index,
        "stack_before": purchase.stack_before,
        "revived": purchase.revives_id is not None,
        "at_ms": _ms(purchase.at),
        "undone": purchase.undone_at is not None,
        "undone_at_ms": _ms(purchase.undone_at),
        "summary": summary,
        "receipt_url": reverse("tourney:receipt_number", args=[*args, receipt]),
        "undo_url": reverse("api:undo_chip_purchase", args=[*args, purchase.pk]),
    }


def _ledger(purchase: ChipPurchase, method: str, cashier, now, sign: int, receipt: str) -> None:
    ledger_price_write(
        tournament_id=purchase.tournament_id,
        entry_id=purchase.entry_id,
        prices=(purchase.buy_in, purchase.fee),
        sign=sign,
        method=method,
        cashier=cashier,
        at=now,
        receipt=receipt,
        purpose=(
            LedgerEntry.Purpose.REBUY
            if purchase.kind == ChipPurchase.Kind.REBUY
            else LedgerEntry.Purpose.ADDON
        ),
        purchase_id=purchase.pk,
    )


def _buy(
    *,
    actor,
    tournament: Tournament,
    entry: Entry,
    kind: str,
    method: str,
    stack: int | None,
    revives: Elimination | None,
) -> ChipPurchase:
    """Write the purchase, its ledger rows, the audit entry and the event (checks done)."""
    now = timezone.now()
    rebuy = kind == ChipPurchase.Kind.REBUY
    clock = _clock(tournament)
    period = advance(clock["state"], clock["periods"], clock["now_ms"]).state.period_index
    ordinal = ChipPurchase.objects.filter(entry=entry, kind=kind).count() + 1
    purchase = ChipPurchase.objects.create(
        tournament=tournament,
        entry=entry,
        kind=kind,
        chips=tournament.rebuy_chips if rebuy else tournament.addon_chips,
        buy_in=tournament.rebuy_buy_in if rebuy else tournament.addon_buy_in,
        fee=tournament.rebuy_fee if rebuy else tournament.addon_fee,
        period_index=period,
        stack_before=0 if revives is not None else stack,
        revives=revives,
        at=now,
        by=_user(actor),
    )
    receipt = purchase_receipt_number(purchase, ordinal)
    _ledger(purchase, method, _user(actor), now, +1, receipt)
    out = chip_purchase_out(purchase)
    audit_record(
        actor=actor,
        action=f"entry.{kind}",
        summary=audit_text(
            gettext_noop("Rebuy for %(name)s: %(chips)s chips")
            if rebuy
            else gettext_noop("Add-on for %(name)s: %(chips)s chips"),
            {"name": entry.player.name, "chips": purchase.chips},
        ),
        tournament=tournament,
        target=purchase,
        after={k: out[k] for k in ("entry_id", "chips", "buy_in", "fee", "method", "revived")}
        | {"receipt_number": receipt, "stack_before": purchase.stack_before},
    )
    event_append(tournament, "money", {"action": kind, **_event_row(out)})
    return purchase


def _event_row(out: dict) -> dict:
    return {
        k: out[k]
        for k in ("id", "kind", "entry_id", "player_name", "chips", "buy_in", "fee", "undone")
    }


def _with_rows(purchase_id: int) -> ChipPurchase:
    return (
        ChipPurchase.objects.select_related("entry__player", "tournament")
        .prefetch_related("ledger")
        .get(pk=purchase_id)
    )


# --- the services -------------------------------------------------------------------------


def entry_rebuy(
    *,
    actor,
    tournament_id: int,
    entry_id: int,
    stack: int | None = None,
    method: str = LedgerEntry.Method.CASH,
) -> ChipPurchase:
    """A rebuy (docs/rules.md §2.5): refused outside the rebuy period, over the limit, with too big
    a stack (or not busted, by the tournament's condition), or for a busted player once a hand has
    been dealt at his table. A busted player's rebuy takes back his bust-out."""
    _check_method(method)
    if stack is not None and stack < 0:
        raise InvalidInput("invalid_stack", _("A stack cannot be negative."))
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        entry = entry_of(tournament, entry_id)
        facts, bust = entry_facts(tournament, entry)
        error = _status_refusal(tournament, facts) or rebuy_refusal(
            rebuy_rules(tournament), facts, stack=stack, **_clock(tournament)
        )
        if error is not None:
            raise _refuse(error)
        if bust is not None:
            # The player sits down again: places of later bust-outs move back, the moves or
            # breaks his bust-out caused and not yet done are taken back.
            elimination_undo_locked(actor=actor, tournament=tournament, entry_id=entry.pk)
            entry = entry_of(tournament, entry.pk)
        purchase = _buy(
            actor=actor,
            tournament=tournament,
            entry=entry,
            kind=ChipPurchase.Kind.REBUY,
            method=method,
            stack=stack,
            revives=bust,
        )
    return _with_rows(purchase.pk)


def entry_addon(
    *, actor, tournament_id: int, entry_id: int, method: str = LedgerEntry.Method.CASH
) -> ChipPurchase:
    """The add-on: one per playing entry, in the period after the tournament's add-on level."""
    _check_method(method)
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        entry = entry_of(tournament, entry_id)
        facts, _bust = entry_facts(tournament, entry)
        error = (
            None if tournament.addon_level is None else _status_refusal(tournament, facts)
        ) or addon_refusal(AddonRules(level=tournament.addon_level), facts, **_clock(tournament))
        if error is not None:
            raise _refuse(error)
        purchase = _buy(
            actor=actor,
            tournament=tournament,
            entry=entry,
            kind=ChipPurchase.Kind.ADDON,
            method=method,
            stack=None,
            revives=None,
        )
    return _with_rows(purchase.pk)


def chip_purchase_undo(*, actor, tournament_id: int, purchase_id: int) -> ChipPurchase:
    """Undo a mistaken rebuy or add-on: refund rows under its receipt number + `R`, its chips
    out of play. When the rebuy took back a bust-out and the entry still plays, the entry is
    busted again now (at the place that is next now). The entry's later purchases go first."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        purchase = (
            ChipPurchase.objects.select_related("entry__player", "entry__tournament_table")
            .filter(tournament=tournament, pk=purchase_id)
            .first()
        )
        if purchase is None:
            raise NotFound(
                "purchase_not_found",
                _("There is no rebuy or add-on %(id)s in this tournament.") % {"id": purchase_id},
            )
        if purchase.undone_at is not None:
            raise Conflict("purchase_undone", _("This rebuy or add-on has been undone already."))
        if ChipPurchase.objects.filter(
            entry_id=purchase.entry_id, undone_at__isnull=True, pk__gt=purchase.pk
        ).exists():
            raise Conflict(
                "undo_later_first",
                _("This entry bought chips again since: undo the later rebuy or add-on first."),
            )
        entry = purchase.entry
        rebusted = False
        if (
            purchase.revives_id is not None
            and entry.status == Entry.Status.ACTIVE
            and entry.tournament_table_id is not None
            and tournament.status == Tournament.Status.RUNNING
        ):
            eliminations_record_locked(
                actor=actor, tournament=tournament, eliminations=[(entry.pk, None)]
            )
            rebusted = True
        now = timezone.now()
        paid = purchase.ledger.filter(amount__gt=0).values_list("method", flat=True).first()
        receipt = purchase_receipt_number(purchase) + REFUND
        _ledger(purchase, paid or LedgerEntry.Method.CASH, _user(actor), now, -1, receipt)
        purchase.undone_at = now
        purchase.undone_by = _user(actor)
        purchase.save(update_fields=["undone_at", "undone_by"])
        out = chip_purchase_out(purchase)
        audit_record(
            actor=actor,
            action="entry.purchase_undo",
            summary=audit_text(
                gettext_noop("Rebuy of %(name)s undone and refunded")
                if purchase.kind == ChipPurchase.Kind.REBUY
                else gettext_noop("Add-on of %(name)s undone and refunded"),
                {"name": entry.player.name},
            ),
            tournament=tournament,
            target=purchase,
            before={"undone": False, "chips": purchase.chips},
            after={"undone": True, "refund_receipt_number": receipt, "busted_again": rebusted},
        )
        event_append(tournament, "money", {"action": "undo", **_event_row(out)})
    return _with_rows(purchase.pk)


def chip_purchases_list(tournament: Tournament, entry_id: int | None = None) -> list[dict]:
    rows = (
        ChipPurchase.objects.filter(tournament=tournament)
        .select_related("entry__player", "tournament")
        .prefetch_related("ledger")
        .order_by("-at", "-id")
    )
    if entry_id is not None:
        rows = rows.filter(entry_id=entry_id)
    return [chip_purchase_out(p) for p in rows[:200]]
