"""A tournament's whole record as one JSON document, and its import into another installation
(docs/backups.md): the settings, structure and payout structure it was played on, its tables,
players, entries, bust-outs, chip purchases, money ledger, deals, penalties, the floor's
actions, color-ups, hand reports and its audit log.

Rows are written as Django's serializer writes them (`{"model", "pk", "fields"}`, in the order
they can be inserted). The import gives every row a new id and points every reference at the
new ids: staff users (who do not exist there) become none, the names the audit keeps stay.
Players are matched by name, phone and e-mail all equal; otherwise they are created. The live
screens' event log is not part of the record. Only a finished or cancelled tournament imports:
a tournament still in play moves with a backup of the whole installation.
"""

import json
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.db import models, transaction

from tourney.models import Player, Tournament

FORMAT = "tourney-tournament-record"
VERSION = 1
# Insert order: everything a row refers to comes before it.
ORDER = [
    "tables.room",
    "tables.table",
    "clocks.structure",
    "clocks.structurelevel",
    "tourney.payoutstructure",
    "tourney.player",
    "tourney.tournament",
    "clocks.clock",
    "tables.tournamenttable",
    "tourney.entry",
    "tourney.elimination",
    "tourney.chippurchase",
    "tourney.ledgerentry",
    "tourney.deal",
    "tourney.penalty",
    "tables.handreport",
    "tables.flooraction",
    "tables.clockcall",
    "clocks.colorup",
    "tourney.auditentry",
]
# The rows that name their tournament themselves (a hand report names its table), in order.
BY_TOURNAMENT = [
    label for label in ORDER[ORDER.index("tourney.elimination") :] if label != "tables.handreport"
]
# Counts the database keeps itself (tourney/db_triggers.py): recounted as entries arrive.
COUNTED = {"tourney.tournament": ("playing",), "tables.tournamenttable": ("players",)}
# References inside JSON columns: [{"entry_id": ...}] lists.
JSON_ENTRY_LISTS = {"tourney.deal": "shares", "clocks.colorup": "seats"}
DONE = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


class RecordError(Exception):
    """A document that is not a record this version imports; the message says why."""


def _label(model) -> str:
    return model._meta.label_lower


def _rows(tournament: Tournament) -> dict[str, list]:
    """Every row of the record, by model label."""
    model = apps.get_model
    t = tournament
    tables = model("tables.TournamentTable").objects.filter(tournament=t)
    entries = model("tourney.Entry").objects.filter(tournament=t)
    players = Player.objects.filter(
        models.Q(entries__tournament=t) | models.Q(penalties__tournament=t)
    ).distinct()
    return {
        "tables.room": [t.room],
        "tables.table": list(
            model("tables.Table").objects.filter(pk__in=tables.values("table_id")).order_by("pk")
        ),
        "clocks.structure": [t.structure],
        "clocks.structurelevel": list(t.structure.levels.all()),
        "tourney.payoutstructure": [t.payout_structure] if t.payout_structure_id else [],
        "tourney.player": list(players),
        "tourney.tournament": [t],
        "clocks.clock": list(model("clocks.Clock").objects.filter(tournament=t)),
        "tables.tournamenttable": list(tables),
        "tourney.entry": list(entries),
        "tables.handreport": list(
            model("tables.HandReport").objects.filter(tournament_table__in=tables)
        ),
        **{
            label: list(model(label).objects.filter(tournament=t).order_by("pk"))
            for label in BY_TOURNAMENT
        },
    }


def tournament_record(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """The whole record of `tournament` as a JSON-ready dict."""
    rows = _rows(tournament)
    objects = []
    for label in ORDER:
        objects += json.loads(serializers.serialize("json", rows.get(label, [])))
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": now.astimezone(UTC).isoformat(),
        "tournament": {"id": tournament.pk, "name": tournament.name},
        "objects": objects,
    }


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
        self.nobody = {_label(get_user_model()), "tourney.season"}

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
                values[field.attname] = self.ref(_label(field.related_model), value)
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
