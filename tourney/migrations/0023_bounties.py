"""Bounty tournaments (docs/rules.md §16): the tournament's bounty and who won each bust-out's
pot. The triggers are dropped around the change (SQLite rebuilds the tables)."""

from django.db import migrations, models

from tourney.core.db_triggers import TriggersDrop, TriggersInstall


class Migration(migrations.Migration):
    dependencies = [("tourney", "0022_day2_entries_inserted_seated")]

    operations = [
        TriggersDrop(),
        migrations.AddField(
            model_name="elimination",
            name="busted_by",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="tournament",
            name="bounty",
            field=models.JSONField(blank=True, default=dict),
        ),
        TriggersInstall(),
    ]
