"""What a room owns, exported (issue 24, docs/backups.md): the backups page (director only) with
its backups, one taken now and each downloaded; the players with contact details as CSV in the
language's order; a finished tournament's whole record as JSON, imported into another
installation with new ids and the same results, money and audit log."""

import csv
import io
import json
import subprocess
import sys

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.conftest import make_staff
from tests.databases import FreshDatabase
from tests.e2e.evening import Evening
from tests.processes import REPO, process_env
from tourney.backups.usecases import RecordError, tournament_record_import
from tourney.models import AuditEntry, Entry, LedgerEntry, Player, Tournament
from tourney.payouts.usecases import prize_pay

pytestmark = pytest.mark.django_db


@pytest.fixture
def backups_client(director, tmp_path, settings) -> Client:
    settings.TOURNEY_BACKUP_DIR = tmp_path
    client = Client()
    client.force_login(director)
    return client


def test_the_backups_page_takes_lists_and_downloads_a_backup(backups_client, tmp_path):
    page = backups_client.get(reverse("backups:page"))
    assert page.status_code == 200 and "No backup yet" in page.content.decode()
    made = backups_client.post(reverse("backups:now"), follow=True)
    assert made.status_code == 200 and "Backed up" in made.content.decode()
    [name] = [p.name for p in tmp_path.iterdir()]
    assert name in made.content.decode()
    download = backups_client.get(reverse("backups:download", args=[name]))
    assert download.status_code == 200
    head = b"".join(download.streaming_content)[:16]
    assert head in (b"SQLite format 3\x00",) or head.startswith(b"PGDMP")
    assert AuditEntry.objects.filter(action="backup.make").count() == 1
    for other in ("manage.py", "..%2Fmanage.py", "tourney.sqlite3"):
        assert backups_client.get(f"/backups/{other}").status_code == 404


@pytest.mark.parametrize("role", ["floor", "desk"])
def test_only_the_director_sees_backups_and_exports(db, role):
    client = Client()
    client.force_login(make_staff(f"u-{role}", role))
    for url in (reverse("backups:page"), reverse("backups:players_csv")):
        assert client.get(url).status_code == 403
    assert client.post(reverse("backups:now")).status_code == 403


def test_players_export_in_hungarian_order_with_contact_details(backups_client, director):
    from tourney.players.usecases import player_create

    for name, phone in [("Zsigmond Örs", "+36 30 111"), ("Szabó Éva", ""), ("Csóka Béla", "")]:
        player_create(actor=director, name=name, phone=phone)
    backups_client.cookies["django_language"] = "hu"
    r = backups_client.get(reverse("backups:players_csv"))
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"))))
    assert rows[0][:5] == ["id", "name", "nickname", "phone", "email"]
    # Hungarian: "Cs" after "C", "Sz" after "S", "Zs" after "Z"
    assert [row[1] for row in rows[1:]] == ["Csóka Béla", "Szabó Éva", "Zsigmond Örs"]
    assert rows[3][3] == "+36 30 111"
    assert AuditEntry.objects.filter(action="players.export").exists()


def finished_evening(director) -> Tournament:
    evening = Evening(director, players=12).arrange().running()
    evening.final_table()
    tournament = evening.finished().tournament
    first = Entry.objects.get(tournament=tournament, place=1)
    prize_pay(actor=director, tournament_id=tournament.pk, entry_id=first.pk, method="cash")
    return Tournament.objects.get(pk=tournament.pk)


def _results(tournament_id: int) -> list[tuple]:
    return sorted(
        Entry.objects.filter(tournament_id=tournament_id).values_list(
            "player__name", "place", "status", "number"
        )
    )


def _money(tournament_id: int) -> tuple[int, int]:
    rows = LedgerEntry.objects.filter(tournament_id=tournament_id)
    return rows.count(), sum(rows.values_list("amount", flat=True))


def test_a_finished_tournaments_record_imports_with_new_ids_and_the_same_results(
    backups_client, director
):
    tournament = finished_evening(director)
    r = backups_client.get(reverse("backups:tournament_record", args=[tournament.pk]))
    assert r.status_code == 200
    record = json.loads(r.content)
    players = Player.objects.count()
    copy = tournament_record_import(actor=director, document=record)
    assert copy.pk != tournament.pk and copy.status == Tournament.Status.FINISHED
    assert _results(copy.pk) == _results(tournament.pk)
    assert _money(copy.pk) == _money(tournament.pk)
    assert Player.objects.count() == players  # the same people: matched, not duplicated
    audit = AuditEntry.objects.filter(tournament=tournament).count()
    assert AuditEntry.objects.filter(tournament=copy).count() == audit + 1  # + the import
    assert copy.structure_id != tournament.structure_id  # the structure as it was played
    page = backups_client.get(reverse("payouts:results", args=[copy.pk]))
    assert page.status_code == 200


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "something-else"}, "not a Tourney"),
        ({"version": 99}, "version"),
        ({"objects": [{"model": "auth.user", "pk": 1, "fields": {}}]}, "rows"),
        ({"objects": "nope"}, "rows"),
    ],
)
def test_a_document_that_is_no_record_is_refused_and_nothing_changes(
    director, tournament, change, message
):
    document = {"format": "tourney-tournament-record", "version": 1, "objects": [], **change}
    count = Tournament.objects.count()
    with pytest.raises(RecordError, match=message):
        tournament_record_import(actor=director, document=document)
    assert Tournament.objects.count() == count


def test_a_tournament_in_play_is_not_imported(backups_client, seated_tournament):
    r = backups_client.get(reverse("backups:tournament_record", args=[seated_tournament.pk]))
    with pytest.raises(RecordError, match="backup of the whole installation"):
        tournament_record_import(actor=None, document=json.loads(r.content))


@pytest.mark.django_db(transaction=True)
def test_the_record_imports_into_another_installation(backups_client, director, tmp_path):
    """Another installation: an empty database of the suite's engine, migrated by its own
    manage.py, imports the file with `manage.py import_tournament`."""
    tournament = finished_evening(director)
    r = backups_client.get(reverse("backups:tournament_record", args=[tournament.pk]))
    path = tmp_path / "record.json"
    path.write_bytes(r.content)
    fresh = FreshDatabase(tmp_path)
    try:
        env = process_env(DATABASE_URL=fresh.url, REDIS_URL="")
        for args in (["migrate", "--noinput"], ["import_tournament", str(path)]):
            done = subprocess.run(
                [sys.executable, "manage.py", *args],
                cwd=REPO,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert done.returncode == 0, done.stderr
        new_id = json.loads(done.stdout)["id"]
        cursor = fresh.cursor()
        cursor.execute(
            f"SELECT count(*), coalesce(sum(amount), 0) FROM tourney_ledgerentry "
            f"WHERE tournament_id = {int(new_id)}"
        )
        assert tuple(cursor.fetchone()) == _money(tournament.pk)
        cursor.execute(
            "SELECT p.name, e.place FROM tourney_entry e JOIN tourney_player p "
            f"ON p.id = e.player_id WHERE e.tournament_id = {int(new_id)}"
        )
        assert sorted(cursor.fetchall()) == sorted(
            Entry.objects.filter(tournament=tournament).values_list("player__name", "place")
        )
    finally:
        connection.close()
        fresh.drop()
