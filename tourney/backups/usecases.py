"""A backup taken from the backups page, audited (docs/backups.md)."""

from collections import defaultdict
from pathlib import Path
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import transaction

from tourney.audit.log import audit_record, audit_text
from tourney.backups.operations import backup_make
from tourney.backups.selectors import FORMAT, ORDER, VERSION, record_label
from tourney.models import Player, Tournament


def backup_take(*, actor) -> Path:
    """Back up the database now (the copy first: it holds the database as it is, not the audit
    entry that says it was taken) and audit who did it."""
    path = backup_make("tourney")
    with transaction.atomic(durable=True):
        audit_record(
            actor=actor,
            action="backup.make",
            summary=audit_text("Database backed up: %(name)s", {"name": path.name}),
            after={"file": path.name, "bytes": path.stat().st_size},
        )
    return path


def players_export(*, actor) -> list[tuple]:
    """Every player's row with contact details, for the director's CSV; the export is audited
    (contact details leave the system)."""
    from tourney.backups.selectors import players_export_rows

    with transaction.atomic(durable=True):
        rows = players_export_rows()
        audit_record(
            actor=actor,
            action="players.export",
            summary=audit_text(
                "Players exported with their contact details (%(n)s)", {"n": len(rows)}
            ),
            after={"players": len(rows)},
        )
    return rows


def backup_restored(*, actor, path: Path, safety: Path | None) -> None:
    """Write in the restored database that it was restored, from which file, and where the
    database it replaced was kept (the audit log is restored with the rest)."""
    with transaction.atomic(durable=True):
        audit_record(
            actor=actor,
            action="backup.restore",
            summary=audit_text("Database restored from %(name)s", {"name": path.name}),
            after={"file": str(path), "replaced_kept_in": str(safety) if safety else None},
        )


# Counts the database keeps itself (tourney/core/db_triggers.py): recounted as entries arrive.
COUNTED = {"tourney.tournament": ("playing",), "tables.tournamenttable": ("players",)}


# References inside JSON columns: [{"entry_id": ...}] lists.
JSON_ENTRY_LISTS = {"tourney.deal": "shares", "clocks.colorup": "seats"}


DONE = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


class RecordError(Exception):
    """A document that is not a record this version imports; the message says why."""


def _checked(document: Any) -> list[dict]:
    """The record's rows, each a known model's, or RecordError."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise RecordError("This is not a Tourney tournament record.")
    if not isinstance(document.get("version"), int) or not 1 <= document["version"] <= VERSION:
        raise RecordError(f"This record's version is not one this Tourney reads (1 to {VERSION}).")
    objects = document.get("objects")
    if not isinstance(objects, list) or not all(
        isinstance(o, dict)
        and o.get("model") in ORDER
        and isinstance(o.get("pk"), int)
        and isinstance(o.get("fields"), dict)
        for o in objects
    ):
        raise RecordError("The record's rows are not all rows of a tournament's record.")
    found = [o for o in objects if o["model"] == "tourney.tournament"]
    if len(found) != 1:
        raise RecordError("A record holds exactly one tournament.")
    if found[0]["fields"].get("status") not in DONE:
        raise RecordError(
            "Only a finished or cancelled tournament imports; one still in play moves with a "
            "backup of the whole installation (manage.py backup, manage.py restore)."
        )
    return sorted(objects, key=lambda o: (ORDER.index(o["model"]), o["pk"]))


class _Import:
    """One import: the new id of every row written so far, by model label and old id."""

    def __init__(self) -> None:
        self.ids: dict[str, dict[int, int]] = defaultdict(dict)
        self.labels = {apps.get_model(label).__name__: label for label in ORDER}
        self.nobody = {record_label(get_user_model()), "tourney.season"}

    def ref(self, target: str, value: Any) -> int | None:
        if value is None or target in self.nobody:
            return None
        try:
            return self.ids[target][value]
        except (KeyError, TypeError):
            raise RecordError(f"A row refers to a {target} the record does not hold.") from None

    def values(self, label: str, fields: dict) -> dict[str, Any]:
        model = apps.get_model(label)
        values = {}
        for name, value in fields.items():
            try:
                field = model._meta.get_field(name)
            except Exception:
                raise RecordError(f"{label} has no field {name}.") from None
            if field.many_to_many or not field.concrete:
                continue
            if field.is_relation:
                values[field.attname] = self.ref(record_label(field.related_model), value)
            else:
                try:
                    values[name] = field.to_python(value)
                except Exception:
                    raise RecordError(f"{label}.{name} holds {str(value)[:40]!r}.") from None
        for name in COUNTED.get(label, ()):
            values[name] = 0  # recounted by the database as the entries are written
        for name in (JSON_ENTRY_LISTS.get(label),):
            if name and isinstance(values.get(name), list):
                values[name] = [
                    {**r, "entry_id": self.ref("tourney.entry", r.get("entry_id"))}
                    if isinstance(r, dict) and "entry_id" in r
                    else r
                    for r in values[name]
                ]
        if label == "tourney.auditentry" and values.get("target_type") in self.labels:
            target = self.labels[values["target_type"]]
            values["target_id"] = self.ids[target].get(values.get("target_id"))
        if label == "tourney.tournament":
            values["season_round"] = None
        if label in ("clocks.structure", "tourney.payoutstructure"):
            values["template_key"] = ""  # the copy as played, editable
        return values

    def existing(self, label: str, values: dict) -> int | None:
        """The row of this installation the record's row is (a player, a room, its table)."""
        if label == "tourney.player":
            same = Player.objects.filter(
                name=values["name"],
                phone=values.get("phone", ""),
                email=values.get("email", ""),
                merged_into__isnull=True,
            )
            return same.values_list("pk", flat=True).first()
        if label == "tables.table":
            table = apps.get_model("tables.Table").objects.filter(
                room_id=values["room_id"], number=values["number"]
            )
            return table.values_list("pk", flat=True).first()
        return None

    def room(self, values: dict) -> int:
        Room = apps.get_model("tables.Room")
        name, n = values["name"], 1
        found = Room.objects.filter(name=name).first()
        if found is not None:
            return found.pk
        while Room.objects.filter(name=name).exists():
            n += 1
            name = f"{values['name']} ({n})"
        return Room.objects.create(**{**values, "name": name}).pk

    def write(self, row: dict) -> None:
        label = row["model"]
        model = apps.get_model(label)
        values = self.values(label, row["fields"])
        if label == "tables.room":
            self.ids[label][row["pk"]] = self.room(values)
            return
        found = self.existing(label, values)
        if found is None:
            obj = model(**values)
            obj.save(force_insert=True)
            found = obj.pk
            stamped = {
                f.name: values[f.name]
                for f in model._meta.concrete_fields
                if getattr(f, "auto_now_add", False) and values.get(f.name) is not None
            }
            if stamped:
                model.objects.filter(pk=found).update(**stamped)
        self.ids[label][row["pk"]] = found


def tournament_record_import(*, actor, document: Any) -> Tournament:
    """Write the record into this installation under new ids; returns the new tournament."""
    from tourney.audit.log import audit_record, audit_text

    rows = _checked(document)
    with transaction.atomic(durable=True):
        writing = _Import()
        for row in rows:
            writing.write(row)
        tournament = Tournament.objects.get(pk=writing.ids["tourney.tournament"][rows_pk(rows)])
        audit_record(
            actor=actor,
            action="tournament.import",
            summary=audit_text(
                "Tournament imported from a record: %(name)s", {"name": tournament.name}
            ),
            tournament=tournament,
            target=tournament,
            after={"rows": len(rows), "exported_at": document.get("exported_at")},
        )
    return tournament


def rows_pk(rows: list[dict]) -> int:
    return next(r["pk"] for r in rows if r["model"] == "tourney.tournament")
