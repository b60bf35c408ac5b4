"""Reads of a satellite (docs/rules.md §17): its terms, a seat's value and the prizes the prize
pool buys now (computed, never stored), and the tickets it has issued."""

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tourney.domain.satellites import (
    Satellite,
    SatellitePrize,
    satellite_from,
    satellite_prizes,
    seats_bought,
)
from tourney.models import Ticket, Tournament


def satellite_of(tournament: Tournament) -> Satellite | None:
    return satellite_from(tournament.satellite)


def seat_value_of(satellite: Satellite) -> int:
    """A seat's value: the house's, or the target's buy-in plus fee (§17.1)."""
    if satellite.seat_value is not None:
        return satellite.seat_value
    target = Tournament.objects.filter(pk=satellite.target_id).only("buy_in", "fee").first()
    return target.entry_price if target is not None else 0


def satellite_prizes_of(tournament: Tournament, prize_pool: int) -> list[SatellitePrize]:
    """The places the pool pays now, 1st first (a seat each, the leftover by the house rule)."""
    satellite = satellite_of(tournament)
    value = seat_value_of(satellite) if satellite else 0
    if satellite is None or value < 1:
        return []
    return satellite_prizes(prize_pool, value, satellite.leftover)


def seats_of(tournament: Tournament, prize_pool: int) -> int:
    """The whole seats the pool buys now (0: not a satellite)."""
    satellite = satellite_of(tournament)
    value = seat_value_of(satellite) if satellite else 0
    return seats_bought(prize_pool, value)[0] if value >= 1 else 0


def satellite_info(tournament: Tournament, prize_pool: int) -> dict | None:
    """What the pages, the TV and the API show of a satellite: its target, the seat's value,
    the seats and the leftover now."""
    satellite = satellite_of(tournament)
    if satellite is None:
        return None
    value = seat_value_of(satellite)
    seats, rest = seats_bought(prize_pool, value) if value >= 1 else (0, 0)
    target = Tournament.objects.filter(pk=satellite.target_id).only("name").first()
    return {
        "target_id": satellite.target_id,
        "target_name": target.name if target else "",
        "seat_value": value,
        "seats": seats,
        "leftover": rest,
        "leftover_rule": satellite.leftover,
        "tickets": tickets_issued(tournament).count(),
    }


def seat_holders(tournament: Tournament, player_ids) -> set[int]:
    """Of these players, those who hold a seat of the satellite's target already (an active
    ticket another satellite gave them; docs/rules.md §17.5)."""
    satellite = satellite_of(tournament)
    if satellite is None:
        return set()
    held = Ticket.objects.filter(
        target_id=satellite.target_id,
        player_id__in=list(player_ids),
        status=Ticket.Status.ACTIVE,
    ).exclude(source=tournament)
    return set(held.values_list("player_id", flat=True))


def satellite_refuses(tournament: Tournament, player_id: int) -> bool:
    """Whether the satellite refuses this player's entry: he holds a seat of its target and
    the house rule is `refuse` (docs/rules.md §17.5)."""
    satellite = satellite_of(tournament)
    if satellite is None or satellite.seat_holder != "refuse":
        return False
    return bool(seat_holders(tournament, [player_id]))


def tickets_issued(tournament: Tournament):
    """The satellite's tickets standing (void ones left out)."""
    return Ticket.objects.filter(source=tournament).exclude(status=Ticket.Status.VOID)


def prize_label(ticket: int, cash: int, seat_value: int) -> str:
    """How a place of a satellite reads on the screens: "Seat", "Seat + 2,857" (a seat and a
    shared leftover), "Ticket 20,000" (a partial seat); "" for cash only."""
    if not ticket:
        return ""
    if ticket >= seat_value:
        if cash:
            return pgettext("satellite", "Seat + %(cash)s") % {"cash": _grouped(cash)}
        return pgettext("satellite", "Seat")
    return _("Ticket %(value)s") % {"value": _grouped(ticket)}


def _grouped(amount: int) -> str:
    return number_format(amount, decimal_pos=0, use_l10n=True, force_grouping=True)
