"""The backups and exports page (director): the backups kept, one taken now, each downloaded;
the players' list as CSV and each tournament's whole record as JSON (docs/backups.md)."""

import csv
import json
import time

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tourney.backups.operations import BackupError, engine_extension
from tourney.backups.selectors import (
    PLAYER_COLUMNS,
    backup_dir,
    backup_last,
    backups_list,
    tournament_record,
)
from tourney.backups.usecases import backup_take, players_export
from tourney.domain.backups import backup_parse
from tourney.models import Tournament
from tourney.system.pages import role_required


@role_required("director")
def backups_page(request):
    return render(
        request,
        "tourney/backups/backups.html",
        {
            "backups": backups_list(),
            "last": backup_last(int(time.time())),
            "folder": backup_dir(),
            "engine": engine_extension(),
            "automatic": settings.TOURNEY_AUTO_BACKUP and engine_extension() == "sqlite3",
            "tournaments": Tournament.objects.order_by("-scheduled_start", "-pk")[:50],
        },
    )


@require_POST
@role_required("director")
def backup_now(request):
    try:
        path = backup_take(actor=request.user)
    except (BackupError, OSError) as exc:
        messages.error(request, _("The backup failed: %(why)s") % {"why": exc})
    else:
        messages.success(request, _("Backed up: %(name)s") % {"name": path.name})
    return redirect("backups:page")


@role_required("director")
def backup_download(request, name: str):
    if backup_parse(name) is None or not (backup_dir() / name).is_file():
        raise Http404
    return FileResponse(open(backup_dir() / name, "rb"), as_attachment=True, filename=name)


@role_required("director")
def players_csv(request):
    """Every player with contact details (director only: the export is audited)."""
    rows = players_export(actor=request.user)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = f'attachment; filename="tourney-players-{stamp}.csv"'
    response.write("\ufeff")  # so that a spreadsheet reads the accents as UTF-8
    writer = csv.writer(response)
    writer.writerow(PLAYER_COLUMNS)
    writer.writerows(rows)
    return response


@role_required("director")
def tournament_record_download(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    record = tournament_record(tournament, timezone.now())
    response = HttpResponse(
        json.dumps(record, ensure_ascii=False, indent=1), content_type="application/json"
    )
    name = f"tourney-record-{tournament.pk}-{timezone.localtime().strftime('%Y%m%d-%H%M')}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
