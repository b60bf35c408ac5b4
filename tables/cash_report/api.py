"""The cash evening's report through the API: `GET /api/v1/rooms/{id}/cash-report?date=`."""

from ninja import Router

from infra.web.schema_types import Id
from tables.cash_report.selectors import cash_report, report_day, room_of
from tourney.core import roles
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["cash games"])


@router.get("/rooms/{room_id}/cash-report", response={200: dict, **ERROR_RESPONSES})
def get_cash_report(request, room_id: Id, date: str | None = None):
    """A gaming day of the room's cash games (default: the one in play)."""
    roles.require(request.auth, "read")
    room = room_of(room_id)
    return cash_report(room, report_day(room, date))
