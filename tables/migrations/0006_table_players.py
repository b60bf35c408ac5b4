"""TournamentTable.players: the playing entries seated at the table, kept by the database's
triggers (`tourney/core/db_triggers.py`, installed after every migrate)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0005_hand_report_misdeal"),
        ("tourney", "0008_entry_table_status_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournamenttable",
            name="players",
            field=models.PositiveSmallIntegerField(db_default=0, default=0, editable=False),
        ),
        migrations.AddIndex(
            model_name="tournamenttable",
            index=models.Index(
                fields=["tournament", "status", "players"], name="tournamenttable_players"
            ),
        ),
    ]
