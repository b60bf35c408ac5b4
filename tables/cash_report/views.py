"""The cash evening's report page and its CSV (one row an hour, then the day's figures)."""

import csv

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tables.cash_report.selectors import cash_report, report_day
from tables.models import Room
from tourney.core.errors import TourneyError
from tourney.system.pages import role_required


@role_required("read")
def report(request, room_id: int):
    room = get_object_or_404(Room, pk=room_id)
    try:
        day = report_day(room, request.GET.get("date") or None)
    except TourneyError:
        day = report_day(room, None)
    data = cash_report(room, day)
    if request.GET.get("format") == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="cash-{room.pk}-{data["date"]}.csv"'
        )
        out = csv.writer(response)
        out.writerow([_("Hour"), _("Tables open"), _("Players seated")])
        for row in data["hours"]:
            out.writerow([row["hour"], row["tables_open"], row["players_seated"]])
        out.writerow([])
        for label, key in (
            (_("Players seated"), "players_seated"),
            (_("Median wait (minutes)"), "wait_median_minutes"),
            (_("Longest wait (minutes)"), "wait_longest_minutes"),
            (_("Calls passed over"), "calls_passed"),
        ):
            out.writerow([label, "" if data[key] is None else data[key]])
        return response
    return render(request, "tables/cash/report.html", {"room": room, "report": data})
