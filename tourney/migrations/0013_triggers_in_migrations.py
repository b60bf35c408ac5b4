"""One writer for the tournament's version: the insert of its event (the trigger), with
`(tournament, version)` unique on the events. The database triggers of tourney/core/db_triggers.py
are created here, where `sqlmigrate` shows them.

Events were always written under the tournament's lock with its next version, so no stored
events share a version; should some, they are numbered again after the tournament's latest
version, in the order they were written, before the constraint is added.
"""

from django.db import migrations, models
from django.db.models import Count, Max

from tourney.core.db_triggers import TriggersInstall


def renumber_shared_versions(apps, schema_editor):
    Event = apps.get_model("tourney", "TournamentEvent")
    Tournament = apps.get_model("tourney", "Tournament")
    shared = (
        Event.objects.values("tournament_id", "version")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    for tournament_id in sorted(set(shared)):
        events = Event.objects.filter(tournament_id=tournament_id)
        top = events.aggregate(top=Max("version"))["top"] or 0
        for offset, pk in enumerate(events.order_by("id").values_list("pk", flat=True), 1):
            Event.objects.filter(pk=pk).update(version=top + offset)
        Tournament.objects.filter(pk=tournament_id).update(version=top + events.count())


class Migration(migrations.Migration):
    dependencies = [
        ("tourney", "0012_player_merge_updated"),
        ("tables", "0006_table_players"),
    ]

    operations = [
        migrations.RunPython(renumber_shared_versions, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="tournamentevent",
            constraint=models.UniqueConstraint(
                fields=("tournament", "version"), name="tournamentevent_version_unique"
            ),
        ),
        TriggersInstall(),
    ]
