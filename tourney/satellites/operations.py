"""A satellite's writes (docs/rules.md §17), inside the caller's transaction: its terms checked
for storing, its finish at the bubble (every player left wins a seat and they share 1st place;
a ticket each, and a partial seat's ticket to the next place), and that finish taken back."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput
from tourney.domain.satellites import (
    LEFTOVER_RULES,
    Satellite,
    SatelliteError,
    satellite_data,
    satellite_over,
)
from tourney.events.log import event_append
from tourney.models import Elimination, Entry, Ticket, Tournament
from tourney.satellites.selectors import (
    satellite_of,
    satellite_prizes_of,
    seat_holders,
    seats_of,
    tickets_issued,
)
from tourney.tournaments.selectors import tournament_summary

SATELLITE_KEYS = {"target_id", "seat_value", "leftover", "seat_holder"}


def satellite_checked(satellite: dict | None, tournament_id: int | None = None) -> dict:
    """The satellite as `Tournament.satellite` stores it ({} for none), or a refusal: a
    target that is another tournament not finished, a seat value of at least 1 (or none: the
    target's price), a known leftover rule."""
    if not satellite:
        return {}
    try:
        if not isinstance(satellite, dict) or set(satellite) - SATELLITE_KEYS:
            raise TypeError("a satellite is an object of target_id, seat_value and leftover")
        target_id, value = satellite.get("target_id"), satellite.get("seat_value")
        if type(target_id) is not int or (value is not None and type(value) is not int):
            raise TypeError("whole numbers")
        leftover = satellite.get("leftover") or "next_place"
        holder = satellite.get("seat_holder") or "cash"
        if not isinstance(leftover, str) or not isinstance(holder, str):
            raise TypeError("a rule's name")
        checked = Satellite(
            target_id=target_id, seat_value=value, leftover=leftover, seat_holder=holder
        )
    except (SatelliteError, TypeError, ValueError) as exc:
        raise InvalidInput(
            "invalid_satellite",
            _(
                "A satellite names its target event, a seat's value of at least 1 (or none) "
                "and what becomes of the leftover: %(rules)s."
            )
            % {"rules": ", ".join(LEFTOVER_RULES)},
        ) from exc
    target = Tournament.objects.filter(pk=checked.target_id).first()
    if target is None or checked.target_id == tournament_id:
        raise InvalidInput("invalid_target", _("The target event is another tournament."))
    if target.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict("target_closed", _("The target event is over: its seats cannot be won."))
    return satellite_data(checked)


def satellite_finished(tournament: Tournament, now, left: int) -> list[Entry]:
    """After a bust-out: when no more players are left than the seats the pool buys, every
    one of them wins a seat (1st place, shared), the satellite is over and the tickets are
    issued (§17.3). Returns the seat winners ([]: play goes on)."""
    if satellite_of(tournament) is None or tournament.status != Tournament.Status.RUNNING:
        return []
    pool = tournament_summary(tournament).prize_pool
    prizes, seats = satellite_prizes_of(tournament, pool), seats_of(tournament, pool)
    if not satellite_over(left, seats):
        return []
    standing = Elimination.objects.filter(tournament=tournament, undone_at__isnull=True)
    if standing.filter(place__lte=seats, place_to__gt=seats).exists():
        raise Conflict(
            "seat_tie",
            _(
                "Players busted in this hand would share the last seat: give each one's stack "
                "at the start of the hand, or record them one at a time in the floor's order."
            ),
        )
    winners = list(
        Entry.objects.select_related("player")
        .filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .order_by("pk")
    )
    Entry.objects.filter(pk__in=[w.pk for w in winners]).update(place=1)
    for winner in winners:
        winner.place = 1
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    # Busted in the hand that crossed the bubble, but placed within the seats: a seat too.
    seated_out = [r.entry for r in standing.filter(place_to__lte=seats).select_related("entry")]
    partial = prizes[seats].ticket if len(prizes) > seats else 0
    next_place = standing.filter(place=seats + 1, place_to=seats + 1).select_related("entry")
    # A winner who holds a seat of the target already plays for its value in cash (§17.5).
    holders = seat_holders(tournament, [e.player_id for e in [*winners, *seated_out]])
    awarded = [(e, prizes[0].ticket) for e in [*winners, *seated_out] if e.player_id not in holders]
    if partial and next_place.exists():  # the place after the seats, one player's alone
        awarded.append((next_place[0].entry, partial))
    target_id = satellite_of(tournament).target_id
    Ticket.objects.bulk_create(
        Ticket(
            player_id=entry.player_id,
            source=tournament,
            source_entry=entry,
            target_id=target_id,
            value=value,
            created_at=now,
            changed_at=now,
        )
        for entry, value in awarded
    )
    return winners


def satellite_unfinished(tournament: Tournament, now) -> None:
    """The bust-out that ended the satellite is undone: its tickets are void, unless one has
    been used or cashed out (then the undo is refused: take that back first)."""
    tickets = Ticket.objects.filter(source=tournament).exclude(status=Ticket.Status.VOID)
    if tickets.exclude(status=Ticket.Status.ACTIVE).exists():
        raise Conflict(
            "ticket_used",
            _("A seat won here has been used or cashed out: take that back first."),
        )
    tickets.update(status=Ticket.Status.VOID, changed_at=now)


def satellite_won_announce(actor, tournament: Tournament) -> None:
    """The satellite's finish: its audit entry (the seat winners) and `tournament` event."""
    tickets = list(tickets_issued(tournament).select_related("player").order_by("pk"))
    names = [t.player.name for t in tickets]
    audit_record(
        actor=actor,
        action="tournament.finish",
        summary=audit_text(
            gettext_noop("%(count)s seats won in %(tournament)s: %(names)s"),
            {"count": len(tickets), "tournament": tournament.name, "names": ", ".join(names)},
        ),
        tournament=tournament,
        target=tournament,
        before={"status": "running"},
        after={
            "status": "finished",
            "tickets": [
                {"id": t.pk, "entry_id": t.source_entry_id, "value": t.value} for t in tickets
            ],
        },
    )
    event_append(
        tournament,
        "tournament",
        {
            "status": tournament.status,
            "seat_winners": [
                {"entry_id": t.source_entry_id, "name": t.player.name, "ticket": t.value}
                for t in tickets
            ],
        },
    )
