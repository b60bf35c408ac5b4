"""Who registered, took the money or did what (`Entry.created_by`, `LedgerEntry.cashier`,
`AuditEntry.actor`) without a database constraint: each check locked the user's row in every
registration (docs/benchmarks.md). Django still sets them to NULL when a user is deleted. The
triggers are dropped around the change: SQLite rebuilds the entry table."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from tourney.core.db_triggers import TriggersDrop, TriggersInstall


class Migration(migrations.Migration):
    dependencies = [
        ("tourney", "0018_tournament_playing"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        TriggersDrop(),
        migrations.AlterField(
            model_name="auditentry",
            name="actor",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="entry",
            name="created_by",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="ledgerentry",
            name="cashier",
            field=models.ForeignKey(
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        TriggersInstall(),
    ]
