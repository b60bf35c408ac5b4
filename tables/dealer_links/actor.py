"""The actor of a dealer link's writes: no staff user, named in the audit by its table."""

from dataclasses import dataclass


@dataclass(frozen=True)
class DealerLinkActor:
    tournament_id: int
    table: int
    revoked: bool = False

    # Not a logged-in user: services record no user (`done_by`, `reported_by` stay empty),
    # and every staff role check refuses it (tourney/core/roles.py).
    is_authenticated = False
    is_anonymous = False
    is_active = True
    pk = None

    @property
    def audit_name(self) -> str:
        return f"dealer link of table {self.table}"

    def get_username(self) -> str:
        return self.audit_name
