"""The Day-2 draw inserts its 5,000 entries already seated, in one statement
(tourney/flights/operations.py): on PostgreSQL the seats of inserted entries are kept once per
statement (tourney/core/db_triggers.py), and a Day-2 entry's flight entry has no constraint in
the database (its check locked each bag's row). The triggers are dropped around the change
(SQLite rebuilds the entry table), then created again and everything counted again."""

import django.db.models.deletion
from django.db import migrations, models

from tourney.core.db_triggers import TriggersDrop, TriggersInstall


class Migration(migrations.Migration):
    dependencies = [("tourney", "0021_festival_flights")]

    operations = [
        TriggersDrop(),
        migrations.AlterField(
            model_name="entry",
            name="day1_entry",
            field=models.OneToOneField(
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="day2_entry",
                to="tourney.entry",
            ),
        ),
        TriggersInstall(),
    ]
