from django.db import migrations

TEMPLATE = "rimoc-championship"
NEW = (
    "The Rimóc Youth Association's championship: blinds rise every 15 minutes, a break every "
    "four levels, starting stack 40,000. Break length (10 min) and color-ups are Tourney defaults."
)


def describe_by_room(apps, schema_editor):
    """The built-in template's notes named a file outside the repository; name the room."""
    Structure = apps.get_model("clocks", "Structure")
    Structure.objects.filter(
        template_key=TEMPLATE, description__contains=".txt: blinds rise every 15 minutes"
    ).update(description=NEW)


class Migration(migrations.Migration):
    dependencies = [("clocks", "0006_big_money")]
    operations = [migrations.RunPython(describe_by_room, migrations.RunPython.noop)]
