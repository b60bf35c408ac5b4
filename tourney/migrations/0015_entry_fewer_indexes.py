"""Drop tourney_entry's own indexes on tournament, tournament_table and created_by.

The draw's UPDATE of 25,000 entries writes a new entry in every index of each row (about 28 ms
of server CPU per index on the benchmark's machine, docs/benchmarks.md). `tournament_id` leads
entry_number_unique, entry_status_table and one_live_entry_per_player, and
`tournament_table_id` leads entry_table_status (and one_player_per_seat): they serve every
query, cascade and foreign-key check by those columns. Nothing reads entries by
`created_by_id`; deleting a user scans the entries once to clear it.

Only the indexes are dropped (the same names on PostgreSQL and SQLite): AlterField would also
drop and re-create the foreign keys on PostgreSQL, checking every entry again under an
exclusive lock, and rebuild the table on SQLite.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

INDEXES = {
    "tourney_entry_created_by_id_f7f3f10a": "created_by_id",
    "tourney_entry_tournament_id_bd61e5b5": "tournament_id",
    "tourney_entry_tournament_table_id_d62f75a0": "tournament_table_id",
}


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0008_room_board_link_generation"),
        ("tourney", "0014_player_link_generations"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{name}"',
                    reverse_sql=f'CREATE INDEX IF NOT EXISTS "{name}" ON "tourney_entry" ("{column}")',
                )
                for name, column in INDEXES.items()
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="entry",
                    name="created_by",
                    field=models.ForeignKey(
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                migrations.AlterField(
                    model_name="entry",
                    name="tournament",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="tourney.tournament",
                    ),
                ),
                migrations.AlterField(
                    model_name="entry",
                    name="tournament_table",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="entries",
                        to="tables.tournamenttable",
                    ),
                ),
            ],
        )
    ]
