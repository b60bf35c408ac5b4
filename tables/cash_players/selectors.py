"""A cash player's own page (docs/rules.md §20.2): his code's link, his places on the lists and
the call for him."""

from __future__ import annotations

from django.conf import settings
from django.core import signing

from tables.cash.selectors import call_out, cash_list_out, player_positions
from tables.models import CashCall, CashList, CashPass, CashSeat

# Codes read aloud and typed on a phone: no 0/O, 1/I/L.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


def _signer() -> signing.Signer:
    return signing.Signer(salt=settings.DISPLAY_LINK_SALT + ".cash-player")


def pass_token(cash_pass: CashPass) -> str:
    return _signer().sign_object({"c": cash_pass.pk})


def pass_of_token(token: str) -> CashPass | None:
    """The live pass a token names, or None (forged, malformed or revoked)."""
    try:
        data = _signer().unsign_object(token)
    except signing.BadSignature:
        return None
    pass_id = data.get("c") if isinstance(data, dict) else None
    if not isinstance(pass_id, int):
        return None
    return (
        CashPass.objects.filter(pk=pass_id, revoked_at=None)
        .select_related("player", "room")
        .first()
    )


def pass_of_code(room_id: int, code: str) -> CashPass | None:
    code = "".join(code.split()).upper().replace("-", "")[:CODE_LENGTH]
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return CashPass.objects.filter(room_id=room_id, code=code, revoked_at=None).first()


def player_state(cash_pass: CashPass) -> dict:
    """His places, the call for him (the seat, its end), where he sits, and the room's lists
    he may join."""
    call = (
        CashCall.objects.filter(player=cash_pass.player, status=CashCall.Status.OPEN)
        .select_related("player", "cash_table")
        .first()
    )
    sits = CashSeat.objects.filter(player=cash_pass.player).select_related("cash_table").first()
    positions = player_positions(cash_pass.player_id)
    mine = {p["cash_list_id"] for p in positions}
    lists = [cash_list_out(x) for x in CashList.objects.filter(room=cash_pass.room, closed_at=None)]
    return {
        "positions": positions,
        "call": (call_out(call) | {"table": call.cash_table.number}) if call else None,
        "seat": {"table": sits.cash_table.number, "seat": sits.seat} if sits else None,
        "lists": [
            {
                "id": x["id"],
                "name": x["game"]["name"],
                "waiting": len(x["players"]),
                "mine": x["id"] in mine,
            }
            for x in lists
        ],
    }
