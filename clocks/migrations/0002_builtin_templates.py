from django.db import migrations


def install_templates(apps, schema_editor):
    from clocks.domain.structures import TEMPLATES, period_rows, structure_row

    Structure = apps.get_model("clocks", "Structure")
    StructureLevel = apps.get_model("clocks", "StructureLevel")
    for data in TEMPLATES.values():
        if Structure.objects.filter(template_key=data.key).exists():
            continue
        structure = Structure.objects.create(**structure_row(data))
        StructureLevel.objects.bulk_create(
            StructureLevel(structure=structure, **row) for row in period_rows(data)
        )


class Migration(migrations.Migration):
    dependencies = [("clocks", "0001_initial")]
    operations = [migrations.RunPython(install_templates, migrations.RunPython.noop)]
