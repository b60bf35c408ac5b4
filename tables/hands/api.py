"""The dealer's hand report: the button moves, or a misdeal."""

from django.utils.translation import gettext as _
from ninja import Router

from infra.web.schema_types import Id, TableNumber
from tables.dealer_links.selectors import require_floor_at
from tables.hands.usecases import hand_misdeal, hand_report
from tables.seating.schemas import HandIn, TableOut
from tables.seating.selectors import tournament_tables_layout
from tourney.core.errors import InvalidInput
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["tables"])
ERRORS = ERROR_RESPONSES


@router.post(
    "/tournaments/{tournament_id}/tables/{number}/hands", response={200: TableOut, **ERRORS}
)
def report_hand(request, tournament_id: Id, number: TableNumber, payload: HandIn | None = None):
    """A hand finished (the button moves), or with `misdeal` a misdeal (the button stays).
    Floor staff, or that table's dealer link."""
    require_floor_at(request.auth, tournament_id, number)
    if payload is not None and payload.misdeal:
        if payload.button_seat is not None:
            raise InvalidInput("invalid_input", _("A misdeal does not move the button."))
        table = hand_misdeal(actor=request.auth, tournament_id=tournament_id, table_number=number)
    else:
        table = hand_report(
            actor=request.auth,
            tournament_id=tournament_id,
            table_number=number,
            button_seat=payload.button_seat if payload else None,
        )
    layout = tournament_tables_layout(table.tournament)
    return next(t for t in layout if t["number"] == table.number)
