"""The draw's cheaper writes (docs/benchmarks.md, "The draw"):

- `Entry.tournament_table` keeps no foreign key in the database: PostgreSQL checked it at
  commit for every entry the draw seated (140-190 ms of 25,000). The services write only
  tables of the entry's own tournament, read under its lock; PROTECT stays in the ORM.
- The players-count trigger (tourney/core/db_triggers.py) leaves an UPDATE's counts to its writer
  while `tourney.players_written` is on: the draw writes each table's count as it opens it.
"""

import django.db.models.deletion
from django.db import migrations, models

from tourney.core.db_triggers import TriggersDrop, TriggersInstall


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0008_room_board_link_generation"),
        ("tourney", "0015_entry_fewer_indexes"),
    ]

    operations = [
        TriggersDrop(),
        migrations.AlterField(
            model_name="entry",
            name="tournament_table",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="entries",
                to="tables.tournamenttable",
            ),
        ),
        TriggersInstall(),
    ]
