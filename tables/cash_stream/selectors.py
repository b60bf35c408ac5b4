"""The room's cash event stream's reads (docs/api.md "Cash games"): the events after an id, as
Server-Sent Events frames, and who may read them."""

from __future__ import annotations

from infra.streams.frames import frame
from tables.models import CashEvent

PAGE = 200


def events_after(room_id: int, after_id: int | None) -> tuple[list[str], int | None]:
    """The room's cash events after `after_id` (all of them when None: from the newest's id,
    nothing, for a client that has not read any), as frames, and the last id sent."""
    rows = CashEvent.objects.filter(room_id=room_id)
    if after_id is None:
        newest = rows.order_by("-id").values_list("id", flat=True).first()
        return [], newest or 0
    found = list(rows.filter(id__gt=after_id).order_by("id")[:PAGE])
    chunks = [
        frame(e.pk, e.kind, {"room": room_id, "version": e.version, **e.payload}) for e in found
    ]
    return chunks, found[-1].pk if found else after_id
