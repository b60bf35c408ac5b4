"""Rooms, physical tables and seat restrictions."""

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.models import Room, SeatRestriction, Table
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound


def _validate_tables(tables: Sequence[dict[str, int]]) -> None:
    if not tables:
        raise InvalidInput("invalid_tables", _("A room needs at least one table."))
    numbers = [t["number"] for t in tables]
    if len(set(numbers)) != len(numbers):
        raise InvalidInput("duplicate_table_number", _("Each table number may appear only once."))
    for t in tables:
        if t["number"] < 1:
            raise InvalidInput("invalid_table_number", _("Table numbers start at 1."))
        if not 2 <= t["seats"] <= 12:
            raise InvalidInput(
                "invalid_seats",
                _("Table %(number)s: a table has between 2 and 12 seats.")
                % {"number": t["number"]},
            )


@transaction.atomic(durable=True)
def room_create(*, actor, name: str, tables: Sequence[dict[str, int]]) -> Room:
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput("invalid_name", _("A room needs a name."))
    _validate_tables(tables)
    if Room.objects.filter(name=name).exists():
        raise Conflict(
            "room_exists", _("A room called “%(name)s” exists already.") % {"name": name}
        )
    room = Room.objects.create(name=name)
    Table.objects.bulk_create(
        Table(room=room, number=t["number"], seats=t["seats"])
        for t in sorted(tables, key=lambda t: t["number"])
    )
    audit_record(
        actor=actor,
        action="room.create",
        summary=audit_text(
            "Created room %(name)s (tables: %(n)s)", {"name": name, "n": len(tables)}
        ),
        target=room,
        after={"name": name, "tables": list(tables)},
    )
    return room


ROOM_SETTINGS = ("gaming_day_starts", "operator_name", "operator_address", "operator_tax_number")


@transaction.atomic(durable=True)
def room_settings_update(*, actor, room_id: int, changes: dict) -> Room:
    """The room's gaming day start and its operator's name, address and tax number (receipts,
    results); only the keys of `changes` (of ROOM_SETTINGS) change. Audited, before and after."""
    room = Room.objects.select_for_update(no_key=True).filter(pk=room_id).first()
    if room is None:
        raise NotFound("room_not_found", _("There is no room with id %(id)s.") % {"id": room_id})
    changes = {key: value for key, value in changes.items() if key in ROOM_SETTINGS}
    for key in ("operator_name", "operator_address", "operator_tax_number"):
        if key in changes:
            changes[key] = " ".join((changes[key] or "").split())
    before = {key: str(getattr(room, key)) for key in changes}
    for key, value in changes.items():
        setattr(room, key, value)
    room.save(update_fields=list(changes) or None)
    audit_record(
        actor=actor,
        action="room.update",
        summary=audit_text(gettext_noop("Room %(name)s: settings changed"), {"name": room.name}),
        target=room,
        before=before,
        after={key: str(getattr(room, key)) for key in changes},
    )
    return room


@transaction.atomic(durable=True)
def seat_restriction_set(
    *, actor, room_id: int, table_number: int, seat: int, kind: str, note: str = ""
) -> SeatRestriction:
    """Block or reserve a seat; the draw and automatic moves will never use it."""
    table = Table.objects.filter(room_id=room_id, number=table_number).first()
    if table is None:
        raise NotFound("table_not_found", _("The room has no table %(n)s.") % {"n": table_number})
    if not 1 <= seat <= table.seats:
        raise InvalidInput(
            "invalid_seat",
            _("Table %(n)s has seats 1 to %(s)s.") % {"n": table.number, "s": table.seats},
        )
    if kind not in SeatRestriction.Kind.values:
        raise InvalidInput("invalid_kind", _("A seat can be blocked or reserved."))
    before = SeatRestriction.objects.filter(table=table, seat=seat).first()
    try:
        restriction, _created = SeatRestriction.objects.update_or_create(
            table=table, seat=seat, defaults={"kind": kind, "note": note[:200]}
        )
    except IntegrityError as exc:  # pragma: no cover - concurrent identical write
        raise Conflict("restriction_conflict", _("The seat changed meanwhile.")) from exc
    audit_record(
        actor=actor,
        action="seat.restrict",
        summary=audit_text(
            gettext_noop("Table %(n)s seat %(s)s blocked")
            if kind == SeatRestriction.Kind.BLOCKED
            else gettext_noop("Table %(n)s seat %(s)s reserved"),
            {"n": table.number, "s": seat},
        ),
        target=restriction,
        before={"kind": before.kind, "note": before.note} if before else None,
        after={"kind": kind, "note": note},
    )
    return restriction


@transaction.atomic(durable=True)
def seat_restriction_clear(*, actor, room_id: int, table_number: int, seat: int) -> None:
    restriction = SeatRestriction.objects.filter(
        table__room_id=room_id, table__number=table_number, seat=seat
    ).first()
    if restriction is None:
        raise NotFound("restriction_not_found", _("That seat is neither blocked nor reserved."))
    audit_record(
        actor=actor,
        action="seat.release",
        summary=audit_text("Table %(n)s seat %(s)s free again", {"n": table_number, "s": seat}),
        target=restriction,
        before={"kind": restriction.kind, "note": restriction.note},
    )
    restriction.delete()
