"""Revoking players' page links (a phone lost, a link shared, a seat card left on a table), one
player's or all of a tournament's, and undoing a revocation made by mistake.

By the mechanism of every revocable link (tourney/core/link_generations.py). Unlike a
display or dealer link, a player's revocation can be undone (a tournament's printed seat cards
are not reprinted because of a wrong click): the undo puts the generation back, and a
revocation always takes a generation never given out before, so an undo never revives a link
revoked since.
"""

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tourney.audit.log import audit_text
from tourney.core.errors import Conflict, NotFound
from tourney.core.link_generations import link_generation_fresh, link_generation_set
from tourney.core.locks import tournament_lock
from tourney.models import AuditEntry, Entry, Tournament
from tourney.player_page.selectors import REVOKED_EVENT

RESTORED_EVENT = "player_link_restored"
REVOKE_ONE, REVOKE_ALL = "entry.player_link_revoke", "tournament.player_links_revoke"
FIELD = "player_link_generation"


def _entry(tournament: Tournament, entry_id: int) -> Entry:
    entry = Entry.objects.select_related("player").filter(tournament=tournament, pk=entry_id)
    found = entry.first()
    if found is None:
        raise NotFound("not_found", _("There is no such entry in this tournament."))
    return found


def _given_out(action: str, target) -> set[int]:
    """Every generation the target's links ever had (never handed out again)."""
    seen = {0, getattr(target, FIELD)}
    for before, after in AuditEntry.objects.filter(
        action=action, target_type=_target_type(target), target_id=target.pk
    ).values_list("before", "after"):
        seen.update(g for g in ((before or {}).get(FIELD), (after or {}).get(FIELD)) if g)
    return seen


def _target_type(target) -> str:
    return type(target).__name__.lower()  # as tourney/audit/log.py records it


def _revoke(*, actor, tournament: Tournament, row, action: str, summary, payload) -> None:
    link_generation_set(
        actor=actor,
        tournament=tournament,
        row=row,
        field=FIELD,
        generation=link_generation_fresh(*_given_out(action, row)),
        action=action,
        summary=summary,
        event=REVOKED_EVENT,
        payload=payload,
    )


@transaction.atomic(durable=True)
def player_link_revoke(*, actor, tournament_id: int, entry_id: int) -> Entry:
    """The player's page link given out so far stops working at once (his page says so, his
    open stream closes); the seat card and receipt printed after carry the new link."""
    tournament = tournament_lock(tournament_id)
    entry = _entry(tournament, entry_id)
    summary = gettext_noop("Player link of %(name)s revoked: reprint the seat card for a new one")
    _revoke(
        actor=actor,
        tournament=tournament,
        row=entry,
        action=REVOKE_ONE,
        summary=audit_text(summary, {"name": entry.player.name}),
        payload={"entry_id": entry.pk},
    )
    return entry


@transaction.atomic(durable=True)
def player_links_revoke(*, actor, tournament_id: int) -> Tournament:
    """Every player's page link of the tournament given out so far stops working at once."""
    tournament = tournament_lock(tournament_id)
    summary = gettext_noop("All player links revoked: reprint seat cards for new ones")
    _revoke(
        actor=actor,
        tournament=tournament,
        row=tournament,
        action=REVOKE_ALL,
        summary=audit_text(summary, {}),
        payload={"all": True},
    )
    return tournament


def _undo(*, actor, tournament: Tournament, row, action: str, summary, payload) -> None:
    last = (
        AuditEntry.objects.filter(action=action, target_type=_target_type(row), target_id=row.pk)
        .order_by("-pk")
        .values_list("before", "after")
        .first()
    )
    current = getattr(row, FIELD)
    if last is None or (last[1] or {}).get(FIELD) != current:
        raise Conflict("nothing_to_undo", _("There is no revocation of these links to undo."))
    link_generation_set(
        actor=actor,
        tournament=tournament,
        row=row,
        field=FIELD,
        generation=(last[0] or {}).get(FIELD, 0),
        action=action + "_undo",
        summary=summary,
        event=RESTORED_EVENT,
        payload=payload,
    )


@transaction.atomic(durable=True)
def player_link_revoke_undo(*, actor, tournament_id: int, entry_id: int) -> Entry:
    """The link revoked last works again (refused once it was revoked again or restored)."""
    tournament = tournament_lock(tournament_id)
    entry = _entry(tournament, entry_id)
    _undo(
        actor=actor,
        tournament=tournament,
        row=entry,
        action=REVOKE_ONE,
        summary=audit_text(
            gettext_noop("Player link of %(name)s works again (revocation undone)"),
            {"name": entry.player.name},
        ),
        payload={"entry_id": entry.pk},
    )
    return entry


@transaction.atomic(durable=True)
def player_links_revoke_undo(*, actor, tournament_id: int) -> Tournament:
    tournament = tournament_lock(tournament_id)
    _undo(
        actor=actor,
        tournament=tournament,
        row=tournament,
        action=REVOKE_ALL,
        summary=audit_text(gettext_noop("All player links work again (revocation undone)"), {}),
        payload={"all": True},
    )
    return tournament
