"""The seats out of the entry table's indexes (docs/benchmarks.md, "Seats in a table of their
own").

No index of `tourney_entry` holds `tournament_table_id` or `seat` any more: the seat's
uniqueness and the reads by table move to `tables.Seat` (tables migration 0009), which the
triggers keep from the entry rows (tourney/core/db_triggers.py; `TriggersInstall` fills it from the
entries already seated). The draw's UPDATE of every entry then changes no indexed column, and
with a fillfactor of 45 on PostgreSQL each new row version fits in its own page: a heap-only
update that writes no index. The fillfactor applies to the pages written from now on.
"""

from django.conf import settings
from django.db import migrations, models

from tourney.core.db_triggers import TriggersDrop, TriggersInstall

ENTRY_FILLFACTOR = 45


def _fillfactor(value: int):
    def run(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"ALTER TABLE tourney_entry SET (fillfactor = {value})")

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0009_seat"),
        ("tourney", "0016_entry_table_unchecked"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        TriggersDrop(),
        migrations.RemoveConstraint(model_name="entry", name="one_player_per_seat"),
        migrations.RemoveIndex(model_name="entry", name="entry_table_status"),
        migrations.RemoveIndex(model_name="entry", name="entry_status_table"),
        migrations.AddIndex(
            model_name="entry",
            index=models.Index(fields=["tournament", "status"], name="entry_tournament_status"),
        ),
        migrations.RunPython(_fillfactor(ENTRY_FILLFACTOR), _fillfactor(100)),
        TriggersInstall(),
    ]
