"""Dealer hand reports: the button moves by the dead-button rule."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.domain.button import Blinds, first_hand_blinds, next_hand_blinds, seats_not_dealt
from tables.floor.follow import floor_follow
from tables.hand_for_hand.follow import hand_for_hand_follow_hand
from tables.models import HandReport, TournamentTable
from tables.seating.selectors import blinds_fields, table_blinds, table_in_play
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput
from tourney.core.locks import tournament_lock
from tourney.eliminations.follow import eliminations_record_locked
from tourney.events.log import event_append
from tourney.models import Entry, Tournament
from tourney.penalties.operations import penalties_after_hand, penalties_follow_seats
from tourney.tournaments.selectors import tournament_not_over, tournament_rules


def _hand_blinds(
    table: TournamentTable,
    occupied: set[int],
    previous: Blinds | None,
    button_seat: int | None,
    dead_button: bool = True,
) -> Blinds:
    """The next hand's positions: by the dead-button rule, or from the dealer's `button_seat`."""
    if button_seat is not None:
        if not 1 <= button_seat <= table.seats:
            raise InvalidInput(
                "invalid_seat",
                _("The button must be on a seat from 1 to %(s)s.") % {"s": table.seats},
            )
        return first_hand_blinds(button_seat, occupied, table.seats)
    if previous is None:
        raise Conflict(
            "button_unknown",
            _("The button of this table is not known yet: report where it is."),
        )
    return next_hand_blinds(previous, occupied, table.seats, dead_button=dead_button)


def _hand_recorded(
    actor,
    tournament: Tournament,
    table: TournamentTable,
    blinds: Blinds,
    previous: Blinds | None,
    button_seat: int | None,
    now,
) -> None:
    """The report's row, audit entry and `hand` event."""
    HandReport.objects.create(
        tournament_table=table,
        hand_number=table.hands_played,
        reported_at=now,
        reported_by=actor if actor is not None and actor.is_authenticated else None,
        button_seat=blinds.button,
        small_blind_seat=blinds.small_blind,
        big_blind_seat=blinds.big_blind,
        button_set_by_dealer=button_seat is not None,
    )
    positions = {
        "button_seat": blinds.button,
        "small_blind_seat": blinds.small_blind,
        "big_blind_seat": blinds.big_blind,
    }
    audit_record(
        actor=actor,
        action="table.hand",
        summary=audit_text(
            "Table %(n)s finished hand %(h)s; button now seat %(b)s",
            {"n": table.number, "h": table.hands_played, "b": blinds.button},
        ),
        tournament=tournament,
        target=table,
        before=(
            {
                "button_seat": previous.button,
                "small_blind_seat": previous.small_blind,
                "big_blind_seat": previous.big_blind,
            }
            if previous
            else None
        ),
        after=positions,
    )
    event_append(
        tournament,
        "hand",
        {"table": table.number, "hands_played": table.hands_played, **positions},
    )


@transaction.atomic(durable=True)
def hand_report(
    *, actor, tournament_id: int, table_number: int, button_seat: int | None = None
) -> TournamentTable:
    """Record that a hand finished at a table and set the positions of the next hand.

    Without `button_seat` the dead-button rule moves the button; with it the dealer says where
    the button is now and the blinds follow from there.
    """
    tournament = tournament_lock(tournament_id)
    return _hand_reported(actor, tournament, table_number, button_seat)


def _hand_reported(
    actor, tournament: Tournament, table_number: int, button_seat: int | None = None
) -> TournamentTable:
    """`hand_report` with the tournament locked."""
    tournament_not_over(tournament)  # the winner alone at his table: no hand to report
    table = table_in_play(tournament, table_number)
    occupied = set(
        Entry.objects.filter(
            seat_row__tournament_table=table, status=Entry.Status.ACTIVE
        ).values_list("seat", flat=True)
    )
    if len(occupied) < 2:
        raise Conflict("table_short", _("A hand needs at least two players at the table."))
    previous = table_blinds(table)
    now = timezone.now()
    # A player moved since the last hand takes the penalty along before this hand counts.
    penalties_follow_seats(actor, tournament, now)
    dead_button = tournament_rules(tournament).dead_button  # else the moving button (§4.1)
    blinds = _hand_blinds(table, occupied, previous, button_seat, dead_button)
    hand_for_hand_follow_hand(actor, tournament, table)
    table.hands_played += 1
    fields = blinds_fields(blinds)
    for name, value in fields.items():
        setattr(table, name, value)
    table.save(update_fields=["hands_played", *fields])
    # A newcomer waiting for the button is dealt in once the button has passed their seat.
    Entry.objects.filter(
        seat_row__tournament_table=table, status=Entry.Status.ACTIVE, waits_for_button=True
    ).exclude(seat__in=seats_not_dealt(blinds, table.seats)).update(waits_for_button=False)
    _hand_recorded(actor, tournament, table, blinds, previous, button_seat, now)
    penalties_after_hand(actor, tournament, table, now)
    # Balancing is judged after every hand (docs/rules.md §5.1).
    floor_follow(actor=actor, tournament=tournament)
    return table


@transaction.atomic(durable=True)
def hand_misdeal(*, actor, tournament_id: int, table_number: int) -> TournamentTable:
    """A misdeal at a table (TDA 35-C): reported so a penalty's count can take it back (the
    misdeal and its redeal are one hand); the button stays, no hand is counted as played,
    hand-for-hand still waits for the redeal."""
    tournament = tournament_lock(tournament_id)
    tournament_not_over(tournament)
    table = table_in_play(tournament, table_number)
    positions = table_blinds(table)
    if positions is None:
        raise Conflict(
            "button_unknown",
            _("The button of this table is not known yet: report where it is."),
        )
    now = timezone.now()
    penalties_follow_seats(actor, tournament, now)
    HandReport.objects.create(
        tournament_table=table,
        hand_number=table.hands_played + 1,
        reported_at=now,
        reported_by=actor if actor is not None and actor.is_authenticated else None,
        button_seat=positions.button,
        small_blind_seat=positions.small_blind,
        big_blind_seat=positions.big_blind,
        misdeal=True,
    )
    audit_record(
        actor=actor,
        action="table.misdeal",
        summary=audit_text(
            gettext_noop("Table %(n)s: misdeal of hand %(h)s, redealt"),
            {"n": table.number, "h": table.hands_played + 1},
        ),
        tournament=tournament,
        target=table,
        after={"hand_number": table.hands_played + 1, "button_seat": positions.button},
    )
    event_append(
        tournament,
        "hand",
        {
            "table": table.number,
            "hands_played": table.hands_played,
            "misdeal": True,
            "button_seat": positions.button,
            "small_blind_seat": positions.small_blind,
            "big_blind_seat": positions.big_blind,
        },
    )
    return table


def hand_finished_with_busts(
    *, actor, tournament_id: int, table_number: int, eliminations, busted_by=None
) -> dict:
    """The dealer's "Bust-out and hand finished", in one transaction: the bust-outs of the
    hand (places, then what the floor needs; `busted_by`, a bounty's winners), then the hand
    report, unless the floor has just broken this table or redrawn the final table (that draw
    placed the button itself)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        result = eliminations_record_locked(
            actor=actor, tournament=tournament, eliminations=eliminations, busted_by=busted_by
        )
        reseated = any(
            a["kind"] == "final_table_redraw"
            or (a["kind"] == "break_table" and a["from_table"] == table_number)
            for a in result["actions"]
        )
        table = TournamentTable.objects.filter(
            tournament_id=tournament_id, number=table_number, status=TournamentTable.Status.OPEN
        ).first()
        # Nothing to report when the last bust-out ended the tournament, or while the table's
        # button is unknown (the dealer sets it with the next report); the bust-outs stand.
        playing = Entry.objects.filter(tournament_id=tournament_id, status=Entry.Status.ACTIVE)
        result["hand_recorded"] = False
        if (
            not reseated
            and table is not None
            and table.big_blind_seat is not None
            and playing.count() > 1
            and playing.filter(seat_row__tournament_table=table).count() >= 2
        ):
            _hand_reported(actor, tournament, table_number)
            result["hand_recorded"] = True
        return result
