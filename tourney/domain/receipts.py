"""Receipt numbers: one per ledger transaction (tourney/cage/operations.py writes the rows).

Every payment in (an entry, a rebuy, an add-on), its refund and a prize paid takes one, in one
format: `<tournament>-<entry number, 4 digits><tail>` (tail `""`
for the entry, `-B<n>`/`-A<n>` for the n-th rebuy/add-on, `P` for the prize, `R` appended for
a refund).
"""

REFUND = "R"
PRIZE = "P"


def receipt_number(tournament_id: int, entry_number: int, tail: str = "") -> str:
    return f"{tournament_id}-{entry_number:04d}{tail}"


def repeat_tail(base: str, times_before: int) -> str:
    """The tail of the n-th transaction of one kind for an entry (a refund after its undo, a
    prize paid again): `R`, `R2`, `R3`... so every transaction keeps a receipt number of its
    own."""
    return base if times_before == 0 else f"{base}{times_before + 1}"
