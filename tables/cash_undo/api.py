"""The cash floor's undo through the API: `POST /api/v1/cash-undo/{audit_id}` (the audit log's
Undo button of a cash action)."""

from ninja import Router

from infra.web.schema_types import Id
from tables.cash_undo.usecases import cash_undo
from tourney.core import roles
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["cash games"])


@router.post("/cash-undo/{audit_id}", response={200: dict, **ERROR_RESPONSES})
def undo_cash_action(request, audit_id: Id):
    """Take back a cash action listed in the audit log (once)."""
    roles.require(request.auth, "desk" if roles.can(request.auth, "desk") else "floor")
    undo = cash_undo(actor=request.auth, audit_id=audit_id)
    return {"undone": audit_id, "audit_id": undo.pk}
