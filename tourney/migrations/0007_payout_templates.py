from django.db import migrations


def install_templates(apps, schema_editor):
    """The domain's payout templates as read-only rows (tourney.domain.payouts)."""
    from tourney.domain.payouts import PAYOUT_TEMPLATES
    from tourney.payouts.selectors import TEMPLATE_NAMES, brackets_json

    PayoutStructure = apps.get_model("tourney", "PayoutStructure")
    for key, structure in PAYOUT_TEMPLATES.items():
        if not PayoutStructure.objects.filter(template_key=key).exists():
            PayoutStructure.objects.create(
                name=TEMPLATE_NAMES.get(key, key),
                template_key=key,
                brackets=brackets_json(structure),
            )


class Migration(migrations.Migration):
    dependencies = [("tourney", "0006_chip_purchase_revives")]
    operations = [migrations.RunPython(install_templates, migrations.RunPython.noop)]
