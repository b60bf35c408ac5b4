"""Revoking a room's lobby board link."""

from django.db import transaction
from django.utils.translation import gettext_noop

from tables.models import Room
from tourney.audit.log import audit_record, audit_text


@transaction.atomic(durable=True)
def board_link_revoke(*, actor, room_id: int) -> Room:
    """The room's board link given out so far stops working (its next refresh is refused);
    not undoable on purpose."""
    room = Room.objects.select_for_update(no_key=True).get(pk=room_id)
    before = room.board_link_generation
    room.board_link_generation = before + 1
    room.save(update_fields=["board_link_generation"])
    audit_record(
        actor=actor,
        action="room.board_link_revoke",
        summary=audit_text(gettext_noop("Board link of %(room)s revoked"), {"room": room.name}),
        target=room,
        before={"board_link_generation": before},
        after={"board_link_generation": before + 1},
    )
    return room
