"""Payout structures (docs/rules.md §12.2): the built-in templates, creating and duplicating a
house's own (editing one is `tourney.payouts.usecases.payout_structure_update`: the payouts of
the tournaments paying by it change with it), and reading a stored one into the domain's
structure.

Templates (`template_key` set) are read-only: duplicate one to change it. Every structure is
checked by `tourney.domain.payouts.validate_structure` before it is saved; a refusal names the
table of entries at fault and saves nothing.
"""

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import InvalidInput, NotFound, refusal
from tourney.domain.payouts import (
    DEFAULT_TEMPLATE,
    PAYOUT_TEMPLATES,
    PayoutBracket,
    PayoutError,
    PayoutStructure,
    payouts_for,
    percent_text,
    shares_from_percents,
    validate_structure,
)
from tourney.models import PayoutStructure as PayoutStructureRow

TEMPLATE_NAMES = {
    "standard": gettext_noop("Standard (about 12.5 % paid)"),
    "flat": gettext_noop("Flat (about 18 % paid)"),
    "winner-heavy": gettext_noop("Winner-heavy (about 10 % paid)"),
}
# The domain's refusals, marked for makemessages (the domain may not import Django).
MESSAGES = [
    gettext_noop("A payout table must pay at least one place."),
    gettext_noop("Place %(place)s must get more than 0 %%."),
    gettext_noop("Place %(place)s gets more than place %(better)s."),
    gettext_noop("The percentages add up to %(total)s %%, not 100 %%."),
    gettext_noop("%(places)s places are paid but there may be only %(entries)s entries."),
    gettext_noop("The payout structure has no tables."),
    gettext_noop("Table %(number)s ends at %(last)s entries, before it starts (%(first)s)."),
    gettext_noop("Table %(number)s should start at %(expected)s entries, not %(first)s."),
    gettext_noop("Only the last table can be open-ended (table %(number)s is not)."),
    gettext_noop("Place %(place)s: %(text)s is not a percentage."),
    gettext_noop("Place %(place)s: percentages have at most 4 decimals."),
    gettext_noop("The payout structure has no table for %(entries)s entries."),
]
MAX_BRACKETS = 60
MAX_PLACES = 2_000


def brackets_json(structure: PayoutStructure) -> list[dict]:
    return [
        {"min_entries": b.min_entries, "max_entries": b.max_entries, "shares": list(b.shares)}
        for b in structure.brackets
    ]


def structure_from_json(name: str, brackets: Sequence[dict]) -> PayoutStructure:
    return PayoutStructure(
        name,
        tuple(
            PayoutBracket(b["min_entries"], b.get("max_entries"), tuple(b["shares"]))
            for b in brackets
        ),
    )


def payout_structure_domain(row: PayoutStructureRow | None) -> PayoutStructure:
    """The stored structure as the domain's; None = the default template."""
    if row is None:
        return PAYOUT_TEMPLATES[DEFAULT_TEMPLATE]
    return structure_from_json(row.name, row.brackets)


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


def _bracket_label(bracket: int | None, structure: PayoutStructure) -> str:
    for b in structure.brackets:
        if b.min_entries == bracket:
            if b.max_entries is None:
                return _("From %(first)s entries") % {"first": b.min_entries}
            return _("%(first)s–%(last)s entries") % {"first": b.min_entries, "last": b.max_entries}
    return ""


def payout_refusal(
    exc: PayoutError, structure: PayoutStructure | None = None, error=InvalidInput
) -> InvalidInput:
    """A domain refusal, translated, with the table of entries at fault named first."""
    detail = refusal(exc, error).detail
    label = _bracket_label(exc.bracket, structure) if structure is not None else ""
    return error(exc.code, f"{label}: {detail}" if label else detail)


def structure_from_payload(name: str, brackets: Sequence[dict]) -> PayoutStructure:
    """API brackets [{min_entries, max_entries, percents | shares}] -> the domain structure,
    each percentage turned into exact millionths (refused: not a number, too many decimals)."""
    if len(brackets) > MAX_BRACKETS:
        raise InvalidInput(
            "too_many_brackets", _("At most %(n)s tables of entries.") % {"n": MAX_BRACKETS}
        )
    out = []
    for b in brackets:
        percents, shares = b.get("percents"), b.get("shares")
        if percents is not None:
            try:
                shares = shares_from_percents([str(p) for p in percents])
            except PayoutError as exc:
                exc.bracket = b["min_entries"]
                partial = PayoutStructure(
                    name, (PayoutBracket(b["min_entries"], b.get("max_entries"), ()),)
                )
                raise payout_refusal(exc, partial) from exc
        if len(shares or ()) > MAX_PLACES:
            raise InvalidInput(
                "too_many_places", _("At most %(n)s places paid.") % {"n": MAX_PLACES}
            )
        out.append(PayoutBracket(b["min_entries"], b.get("max_entries"), tuple(shares or ())))
    return PayoutStructure(name, tuple(out))


def payout_structure_check(structure: PayoutStructure, sample_pool: int, unit: int = 1) -> dict:
    """What the editor shows as you type: the first error (with its table), each table's total
    percentage, and the amounts of a sample pool at each table's fewest entries."""
    error = None
    try:
        validate_structure(structure)
    except PayoutError as exc:
        error = {
            "code": exc.code,
            "detail": payout_refusal(exc, structure).detail,
            "bracket": next(
                (i for i, b in enumerate(structure.brackets) if b.min_entries == exc.bracket),
                None,
            ),
            "place": exc.params.get("place"),
        }
    brackets = []
    for b in structure.brackets:
        # Each table's amounts on their own, so a mistake in one table hides no other's.
        try:
            alone = PayoutStructure(structure.name, (b,))
            amounts = list(payouts_for(sample_pool, b.min_entries, alone, unit))
        except PayoutError:
            amounts = None
        brackets.append(
            {
                "min_entries": b.min_entries,
                "max_entries": b.max_entries,
                "places_paid": b.places_paid,
                "total_percent": percent_text(sum(b.shares)),
                "total_ok": sum(b.shares) == 1_000_000,
                "amounts": amounts,
            }
        )
    return {"valid": error is None, "error": error, "brackets": brackets}


def payout_structure_out(row: PayoutStructureRow) -> dict:
    return {
        "id": row.pk,
        "name": row.name,
        "template": row.template_key or None,
        "brackets": [
            {
                "min_entries": b["min_entries"],
                "max_entries": b.get("max_entries"),
                "shares": b["shares"],
                "percents": [percent_text(s) for s in b["shares"]],
            }
            for b in row.brackets
        ],
    }


def payout_structure_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput("invalid_name", _("A payout structure needs a name."))
    return name[:120]


def payout_structure_validated(name: str, brackets: Sequence[dict]) -> PayoutStructure:
    structure = structure_from_payload(name, brackets)
    try:
        validate_structure(structure)
    except PayoutError as exc:
        raise payout_refusal(exc, structure) from exc
    return structure


@transaction.atomic
def payout_structure_create(*, actor, name: str, brackets: Sequence[dict]) -> PayoutStructureRow:
    name = payout_structure_name(name)
    structure = payout_structure_validated(name, brackets)
    row = PayoutStructureRow.objects.create(name=name, brackets=brackets_json(structure))
    audit_record(
        actor=actor,
        action="payout_structure.create",
        summary=audit_text(gettext_noop("Created payout structure %(name)s"), {"name": name}),
        target=row,
        after=payout_structure_out(row),
    )
    return row


def payout_structure_of(structure_id: int, *, lock: bool = False) -> PayoutStructureRow:
    """The payout structure `structure_id` (locked for update with `lock`), or 404
    `payout_structure_not_found`."""
    rows = PayoutStructureRow.objects.select_for_update() if lock else PayoutStructureRow.objects
    row = rows.filter(pk=structure_id).first()
    if row is None:
        raise NotFound(
            "payout_structure_not_found",
            _("There is no payout structure with id %(id)s.") % {"id": structure_id},
        )
    return row


@transaction.atomic
def payout_structure_duplicate(*, actor, structure_id: int) -> PayoutStructureRow:
    source = payout_structure_of(structure_id, lock=True)
    name = (_("Copy of %(name)s") % {"name": _(source.name)})[:120]
    row = PayoutStructureRow.objects.create(name=name, brackets=source.brackets)
    audit_record(
        actor=actor,
        action="payout_structure.create",
        summary=audit_text(
            gettext_noop("Copied payout structure %(source)s as %(name)s"),
            {"source": source.name, "name": name},
        ),
        target=row,
        after=payout_structure_out(row),
    )
    return row
