from django.db import migrations


def install_templates(apps, schema_editor):
    from clocks.domain.structures import TEMPLATES

    Structure = apps.get_model("clocks", "Structure")
    StructureLevel = apps.get_model("clocks", "StructureLevel")
    for data in TEMPLATES.values():
        if Structure.objects.filter(template_key=data.key).exists():
            continue
        structure = Structure.objects.create(
            name=data.name,
            description=data.description,
            chips=[{"value": c.value, "color": c.color} for c in data.chips],
            starting_stack=data.starting_stack,
            template_key=data.key,
        )
        StructureLevel.objects.bulk_create(
            StructureLevel(
                structure=structure,
                position=i,
                kind=p.kind,
                small_blind=p.small_blind,
                big_blind=p.big_blind,
                ante=p.ante,
                duration_seconds=p.duration_seconds,
                color_up=list(p.color_up),
            )
            for i, p in enumerate(data.periods)
        )


class Migration(migrations.Migration):
    dependencies = [("clocks", "0001_initial")]
    operations = [migrations.RunPython(install_templates, migrations.RunPython.noop)]
