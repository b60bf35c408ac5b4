"""Payout writes inside a use case's transaction: the built-in structures installed, the
payouts recomputed when the field or the pool changes."""

from tourney.core.errors import Conflict
from tourney.domain.payouts import (
    PAYOUT_TEMPLATES,
)
from tourney.events.log import event_append
from tourney.models import PayoutStructure as PayoutStructureRow
from tourney.models import Tournament
from tourney.payouts.selectors import (
    TEMPLATE_NAMES,
    brackets_json,
    tournament_payouts,
)


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


def payouts_changed(tournament: Tournament, reason: str) -> None:
    """Tell the screens (`payouts` event) inside the caller's transaction (tournament locked)."""
    try:
        payouts = tournament_payouts(tournament)
    except Conflict:
        payouts = []
    event_append(tournament, "payouts", {"reason": reason, "payouts": payouts})
