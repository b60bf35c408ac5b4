"""What a dealer link may do: the floor's actions at its own table, nothing else.

Every API action a dealer's phone can take calls one of these instead of
`roles.require(actor, "floor")`: staff pass by their role as before; a dealer link passes only
for its own tournament and table, and never once revoked (403 `{code, detail}`, nothing done).
"""

from collections.abc import Iterable

from django.utils.translation import gettext as _

from clocks.models import ColorUp
from tables.dealer_links.actor import DealerLinkActor
from tables.floor.selectors import tables_really_at
from tables.models import ClockCall, FloorAction
from tourney.core import roles
from tourney.core.errors import PermissionDenied


def _dealer(actor, tournament_id: int) -> DealerLinkActor | None:
    """The dealer link acting, checked for revocation and tournament; None for staff."""
    if not isinstance(actor, DealerLinkActor):
        return None
    if actor.revoked:
        raise PermissionDenied(
            "dealer_link_revoked",
            _("This dealer link was revoked: ask the floor for the table's new link."),
        )
    if actor.tournament_id != tournament_id:
        raise PermissionDenied(
            "dealer_link_other_table", _("This dealer link is for another tournament.")
        )
    return actor


def _other_table(actor: DealerLinkActor) -> PermissionDenied:
    return PermissionDenied(
        "dealer_link_other_table",
        _("This dealer link is for table %(t)s only.") % {"t": actor.table},
    )


def require_floor_at(actor, tournament_id: int, table: int | None) -> None:
    """Floor staff anywhere; a dealer link at its own table only."""
    dealer = _dealer(actor, tournament_id)
    if dealer is None:
        roles.require(actor, "floor")
    elif table != dealer.table:
        raise _other_table(dealer)


def require_busts_at(actor, tournament_id: int, entry_ids: Iterable[int]) -> None:
    """Floor staff for any players; a dealer link for players sitting at its table only (a
    pending mover at the table he has not left yet, `tables_really_at`)."""
    dealer = _dealer(actor, tournament_id)
    if dealer is None:
        roles.require(actor, "floor")
        return
    # Players sitting at another table are refused here: where a player really sits, as the
    # console shows him, so a pending mover is his old table's until the floor confirms his
    # move (docs/rules.md §3.4). One already out (the dealer's second tap on Bust-out) or
    # unknown is left to the bust-out itself, which answers why (409 already_eliminated, 404),
    # with nothing done either way.
    tables = tables_really_at(tournament_id, entry_ids)
    if any(number != dealer.table for number in tables.values()):
        raise _other_table(dealer)


def require_action_at(actor, tournament_id: int, action_id: int) -> None:
    """Floor staff for any action; a dealer link for a move into or out of its table."""
    dealer = _dealer(actor, tournament_id)
    if dealer is None:
        roles.require(actor, "floor")
        return
    action = FloorAction.objects.filter(tournament_id=tournament_id, pk=action_id).first()
    if action is None or dealer.table not in (action.from_table, action.to_table):
        raise _other_table(dealer)


def require_clock_call_at(actor, tournament_id: int, call_id: int) -> None:
    dealer = _dealer(actor, tournament_id)
    if dealer is None:
        roles.require(actor, "floor")
        return
    here = ClockCall.objects.filter(
        tournament_id=tournament_id, pk=call_id, tournament_table__number=dealer.table
    )
    if not here.exists():
        raise _other_table(dealer)


def require_color_up_at(actor, tournament_id: int, color_up_id: int) -> None:
    dealer = _dealer(actor, tournament_id)
    if dealer is None:
        roles.require(actor, "floor")
        return
    here = ColorUp.objects.filter(
        tournament_id=tournament_id, pk=color_up_id, tournament_table__number=dealer.table
    )
    if not here.exists():
        raise _other_table(dealer)
