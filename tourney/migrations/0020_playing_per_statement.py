"""The count in play (`Tournament.playing`) kept once per statement on PostgreSQL
(tourney/core/db_triggers.py): a bulk insert of entries updated the tournament's row once per
entry. `TriggersInstall` creates the triggers again and counts everything again."""

from django.db import migrations

from tourney.core.db_triggers import TriggersInstall


class Migration(migrations.Migration):
    dependencies = [("tourney", "0019_who_did_it_unconstrained")]

    operations = [TriggersInstall()]
