"""The cash evening's report (docs/rules.md §20, issue 33 item 9): for a room's gaming day, the
tables open hour by hour, the players who sat down, the waits from a list to a seat (median
and longest) and the calls passed over."""

from __future__ import annotations

import datetime
import statistics

from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import CashCall, CashListPlayer, CashSitting, CashTable, Room
from tourney.core.errors import InvalidInput, NotFound
from tourney.sit_and_go.selectors import room_gaming_day_bounds as gaming_day_bounds
from tourney.sit_and_go.selectors import room_gaming_day_now as gaming_day_now


def _minutes(delta: datetime.timedelta) -> int:
    return round(delta.total_seconds() / 60)


def cash_report(room: Room, day: datetime.date, now: datetime.datetime | None = None) -> dict:
    """The day's figures and its hours: `hours` has one row an hour from the first table
    opened to the last closed (or now), each with the tables open in it and the players who
    sat down in it."""
    start, end = gaming_day_bounds(room, day)
    now = min(now or timezone.now(), end)
    tables = list(
        CashTable.objects.filter(room=room, opened_at__lt=end).exclude(closed_at__lt=start)
    )
    sittings = list(CashSitting.objects.filter(room=room, seated_at__gte=start, seated_at__lt=end))
    seated = CashListPlayer.objects.filter(
        cash_list__room=room, status="seated", ended_at__gte=start, ended_at__lt=end
    )
    waits = sorted(_minutes(p.ended_at - p.joined_at) for p in seated)
    passed = CashCall.objects.filter(
        cash_table__room=room, status="passed", ended_at__gte=start, ended_at__lt=end
    ).count()
    hours = []
    if tables:
        first = max(start, min(t.opened_at for t in tables)).replace(
            minute=0, second=0, microsecond=0
        )
        last = min(end, max((t.closed_at or now) for t in tables))
        hour = first
        while hour < last:
            after = hour + datetime.timedelta(hours=1)
            hours.append(
                {
                    "hour": timezone.localtime(hour).strftime("%H:%M"),
                    "tables_open": sum(
                        1 for t in tables if t.opened_at < after and (t.closed_at or now) > hour
                    ),
                    "players_seated": sum(1 for s in sittings if hour <= s.seated_at < after),
                }
            )
            hour = after
    return {
        "date": day.isoformat(),
        "tables": len(tables),
        "players_seated": len({s.player_id for s in sittings}),
        "seatings": len(sittings),
        "wait_median_minutes": round(statistics.median(waits)) if waits else None,
        "wait_longest_minutes": waits[-1] if waits else None,
        "calls_passed": passed,
        "hours": hours,
    }


def report_day(room: Room, date: str | None) -> datetime.date:
    if date is None:
        return gaming_day_now(room)
    try:
        return datetime.date.fromisoformat(date)
    except ValueError as exc:
        raise InvalidInput("invalid_date", _("The date is YYYY-MM-DD.")) from exc


def room_of(room_id: int) -> Room:
    room = Room.objects.filter(pk=room_id).first()
    if room is None:
        raise NotFound("room_not_found", _("There is no such room."))
    return room
