"""The tournament's count of entries in play, kept by the triggers (tourney/core/db_triggers.py):
registration compares it with the seats instead of counting the field (docs/benchmarks.md,
"Registration without counting the field"). `TriggersInstall` counts the entries already in
play."""

from django.db import migrations, models

from tourney.core.db_triggers import TriggersDrop, TriggersInstall


class Migration(migrations.Migration):
    dependencies = [("tourney", "0017_seats_out_of_entry_indexes")]

    operations = [
        TriggersDrop(),
        migrations.AddField(
            model_name="tournament",
            name="playing",
            field=models.PositiveIntegerField(default=0),
        ),
        TriggersInstall(),
    ]
