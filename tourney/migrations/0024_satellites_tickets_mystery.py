"""Satellites and their tickets (docs/rules.md §17): the tournament's satellite, the ticket as a
way in at the cage, the tickets won; a mystery bounty's phase and envelope on each bust-out
(§16.5); bounties paid at the cage (§16.4). The triggers are dropped around the change
(SQLite rebuilds the tables)."""


import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from tourney.core.db_triggers import TriggersDrop, TriggersInstall


class Migration(migrations.Migration):

    dependencies = [
        ('tourney', '0023_bounties'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        TriggersDrop(),
        migrations.AddField(
            model_name='elimination',
            name='bounty_phase',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='elimination',
            name='envelope',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='tournament',
            name='satellite',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AlterField(
            model_name='ledgerentry',
            name='method',
            field=models.CharField(choices=[('cash', 'Cash'), ('card', 'Card'), ('other', 'Other'), ('ticket', 'Ticket')], default='cash', max_length=8),
        ),
        migrations.AlterField(
            model_name='ledgerentry',
            name='purpose',
            field=models.CharField(choices=[('entry', 'Entry'), ('rebuy', 'Rebuy'), ('addon', 'Add-on'), ('prize', 'Prize'), ('bounty', 'Bounty')], default='entry', max_length=8),
        ),
        migrations.CreateModel(
            name='Ticket',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('value', models.PositiveBigIntegerField()),
                ('status', models.CharField(choices=[('active', 'Not used yet'), ('used', 'Used'), ('cashed_out', 'Cashed out'), ('void', 'Void')], default='active', max_length=12)),
                ('created_at', models.DateTimeField()),
                ('changed_at', models.DateTimeField()),
                ('changed_by', models.ForeignKey(db_constraint=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('entry', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='ticket', to='tourney.entry')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tickets', to='tourney.player')),
                ('source', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tickets_won', to='tourney.tournament')),
                ('source_entry', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tickets_won', to='tourney.entry')),
                ('target', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tickets', to='tourney.tournament')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
                'indexes': [models.Index(fields=['player', 'status'], name='tourney_tic_player__2663d6_idx')],
            },
        ),
        TriggersInstall(),
    ]
