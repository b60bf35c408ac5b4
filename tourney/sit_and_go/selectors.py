"""Sit-and-go series' reads (docs/rules.md §19): the event taking registrations, a free
table for the next one, the series as the API shows it, and a gaming day's report."""

import datetime

from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import Table, TournamentTable
from tourney.core.errors import NotFound
from tourney.models import Entry, LedgerEntry, SitAndGoSeries, Tournament

LIVE = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)
_IN_FIELD = (Entry.Status.ACTIVE, Entry.Status.ELIMINATED)


def series_of(series_id: int, *, lock: bool = False) -> SitAndGoSeries:
    rows = SitAndGoSeries.objects.select_related("room")
    found = (
        (rows.select_for_update(no_key=True, of=("self",)) if lock else rows)
        .filter(pk=series_id)
        .first()
    )
    if found is None:
        raise NotFound(
            "sng_series_not_found",
            _("There is no sit-and-go series with id %(id)s.") % {"id": series_id},
        )
    return found


def filling_event(series: SitAndGoSeries) -> Tournament | None:
    """The series' event taking registrations: not started, not full, not counting down."""
    return (
        series.events.filter(
            status=Tournament.Status.REGISTERING,
            auto_start_at__isnull=True,
            playing__lt=series.seats,
        )
        .order_by("pk")
        .first()
    )


def free_table(series: SitAndGoSeries) -> Table | None:
    """The room's lowest-numbered table with the series' seats that no live event plays at
    or has reserved for a sit-and-go; a table another event only lists (not in play) comes
    after the tables nobody lists."""
    live = TournamentTable.objects.filter(tournament__status__in=LIVE)
    busy = live.filter(
        Q(status=TournamentTable.Status.OPEN) | Q(tournament__sng_series__isnull=False)
    ).values("table_id")
    listed = set(live.values_list("table_id", flat=True))
    tables = list(
        Table.objects.filter(room=series.room, seats__gte=series.seats)
        .exclude(pk__in=busy)
        .order_by("number")
    )
    tables.sort(key=lambda t: (t.pk in listed, t.number))
    return tables[0] if tables else None


def due_to_start(now: datetime.datetime) -> list[int]:
    """Sit-and-gos whose countdown is over (their tournament ids)."""
    rows = Tournament.objects.filter(
        status=Tournament.Status.REGISTERING, auto_start_at__lte=now, sng_series__isnull=False
    )
    return list(rows.order_by("auto_start_at").values_list("pk", flat=True))


def full_not_counting(now: datetime.datetime) -> list[int]:
    """Sit-and-gos full with no countdown yet (a desk's answer lost between the registration
    and the countdown): the tick starts their countdown."""
    rows = Tournament.objects.filter(
        status=Tournament.Status.REGISTERING, auto_start_at__isnull=True, sng_series__isnull=False
    ).select_related("sng_series")
    return [t.pk for t in rows if t.playing >= t.sng_series.seats]


def _ms(moment: datetime.datetime | None) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def series_out(series: SitAndGoSeries) -> dict:
    events = list(series.events.order_by("pk").only("pk", "status", "playing", "auto_start_at"))
    filling = filling_event(series)
    return {
        "id": series.pk,
        "name": series.name,
        "room_id": series.room_id,
        "structure_id": series.structure_id,
        "starting_stack": series.starting_stack,
        "buy_in": series.buy_in,
        "fee": series.fee,
        "currency": series.currency,
        "seats": series.seats,
        "house_rules": series.house_rules,
        "payout_structure_id": series.payout_structure_id,
        "countdown_seconds": series.countdown_seconds,
        "game": {"kind": series.game, "limit": series.game_limit},
        "filling": ({"tournament_id": filling.pk, "entries": filling.playing} if filling else None),
        "starting": [
            {"tournament_id": t.pk, "starts_at_ms": _ms(t.auto_start_at)}
            for t in events
            if t.status == Tournament.Status.REGISTERING and t.auto_start_at is not None
        ],
        "running": [t.pk for t in events if t.status == Tournament.Status.RUNNING],
        "finished": [t.pk for t in events if t.status == Tournament.Status.FINISHED],
    }


def room_gaming_day_bounds(room, day: datetime.date):
    """The room's gaming day `day`: from its boundary (e.g. 06:00) to the next, room time."""
    zone = timezone.get_default_timezone()
    start = datetime.datetime.combine(day, room.gaming_day_starts, tzinfo=zone)
    return start, start + datetime.timedelta(days=1)


def room_gaming_day_now(room) -> datetime.date:
    """The room's gaming day now: at 02:00 it is still yesterday's (a 06:00 boundary)."""
    now = timezone.localtime()
    late = now.time() < room.gaming_day_starts
    return now.date() - datetime.timedelta(days=1) if late else now.date()


def gaming_day_bounds(series: SitAndGoSeries, day: datetime.date):
    return room_gaming_day_bounds(series.room, day)


def gaming_day_in_play(series: SitAndGoSeries) -> datetime.date:
    return room_gaming_day_now(series.room)


def series_report(series: SitAndGoSeries, day: datetime.date) -> dict:
    """A gaming day of the series: the events started in it, their entries, and the money
    of their ledgers (buy-ins for the prize pools less refunds, fees, prizes paid)."""
    start, end = gaming_day_bounds(series, day)
    events = series.events.filter(started_at__gte=start, started_at__lt=end)
    rows = LedgerEntry.objects.filter(tournament__in=events)
    money = {
        kind: rows.filter(kind__in=kinds).aggregate(total=Sum("amount"))["total"] or 0
        for kind, kinds in (
            ("buy_ins", (LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.REFUND_BUY_IN)),
            ("fees", (LedgerEntry.Kind.FEE, LedgerEntry.Kind.REFUND_FEE)),
            ("prizes", (LedgerEntry.Kind.PAYOUT,)),
        )
    }
    return {
        "date": day.isoformat(),
        "events": events.count(),
        "entries": Entry.objects.filter(tournament__in=events, status__in=_IN_FIELD).count(),
        "buy_ins": money["buy_ins"],
        "fees": money["fees"],
        "prizes": -money["prizes"],
    }


def series_board(room_id: int | None, winners: int = 3) -> list[dict]:
    """The series of a room (or every room) for the festival board, the home page and the
    series' list: the event filling ("7/9"), those counting down, those running, the last
    winners' names (latest first)."""
    rows = SitAndGoSeries.objects.select_related("room")
    if room_id is not None:
        rows = rows.filter(room_id=room_id)
    out = []
    for series in rows:
        filling = filling_event(series)
        last = (
            Entry.objects.filter(tournament__sng_series=series, place=1)
            .filter(tournament__status=Tournament.Status.FINISHED)
            .order_by("-tournament__finished_at")
            .values_list("player__name", flat=True)[:winners]
        )
        out.append(
            {
                "id": series.pk,
                "name": series.name,
                "seats": series.seats,
                "filling": filling.playing if filling else 0,
                "starting": series.events.filter(
                    status=Tournament.Status.REGISTERING, auto_start_at__isnull=False
                ).count(),
                "running": series.events.filter(status=Tournament.Status.RUNNING).count(),
                "winners": list(last),
            }
        )
    return out
