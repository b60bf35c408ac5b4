"""tourney.payouts.operations."""

from tourney.domain.payouts import (
    PAYOUT_TEMPLATES,
)
from tourney.models import PayoutStructure as PayoutStructureRow
from tourney.payouts.selectors import TEMPLATE_NAMES, brackets_json


def payout_structure_templates_install() -> list[PayoutStructureRow]:
    """The built-in templates as read-only rows (idempotent; the data migration and the test
    fixtures call it)."""
    rows = []
    for key, structure in PAYOUT_TEMPLATES.items():
        row, _created = PayoutStructureRow.objects.get_or_create(
            template_key=key,
            defaults={"name": TEMPLATE_NAMES.get(key, key), "brackets": brackets_json(structure)},
        )
        rows.append(row)
    return rows
