"""A bounty's winners named after the bust-out (docs/rules.md §16.2): the floor recorded the
bust-out in a hurry, or named the wrong player."""

from django.db import transaction
from django.utils.translation import gettext as _

from tourney.bounties.operations import envelopes_fix, mystery_draw, winners_announced
from tourney.bounties.selectors import book_of, bounty_of, envelopes_of
from tourney.core.errors import Conflict, InvalidInput, NotFound
from tourney.core.locks import tournament_lock
from tourney.domain.bounties import BountyError
from tourney.models import Elimination, Entry
from tourney.tournaments.selectors import tournament_summary


def bounty_winners_name(
    *, actor, tournament_id: int, entry_id: int, winners: list[int], rng=None
) -> dict:
    """Name (or correct) the winners of the pot that busted `entry_id`, the first seat left of
    the button first. Each was in play when he busted him (the bounties are worked out again
    from every standing bust-out: a winner out before is refused, `winner_not_in_play`)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        bounty = bounty_of(tournament)
        if bounty is None:
            raise Conflict(
                "not_a_bounty_tournament", _("This tournament has no bounties: name no winner.")
            )
        row = Elimination.objects.filter(
            tournament=tournament, entry_id=entry_id, undone_at__isnull=True
        ).first()
        if row is None:
            raise NotFound("not_busted", _("This player has not busted."))
        if not winners or len(set(winners)) != len(winners) or entry_id in winners:
            raise InvalidInput(
                "invalid_busted_by", _("Name each winner once, and never the busted player.")
            )
        known = Entry.objects.filter(tournament=tournament, pk__in=winners).count()
        if known != len(winners):
            raise InvalidInput(
                "winner_not_playing", _("A pot's winner must be a player of this tournament.")
            )
        before = list(row.busted_by or [])
        row.busted_by = list(winners)
        row.save(update_fields=["busted_by"])
        if row.bounty_phase and row.envelope is None:  # a mystery bounty: they draw now
            mystery_draw(actor, tournament, [row], rng)
        try:
            book = book_of(tournament, bounty)
        except BountyError as exc:
            raise Conflict(
                "winner_not_in_play",
                _("A winner named was out of the tournament before this bust-out."),
            ) from exc
        winners_announced(actor, tournament, {entry_id: list(winners)}, before)
    return {"entry_id": entry_id, "busted_by": winners, "won": book.won}


MAX_ENVELOPES = 10_000


def envelopes_set(*, actor, tournament_id: int, values: list[int]) -> list[int]:
    """The director's envelopes of a mystery bounty (§16.5), before its phase: whole amounts,
    summing to the bounty pool to the unit. Refused once an envelope is drawn or the phase
    has begun (`mystery_phase_started`)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        bounty = bounty_of(tournament)
        if bounty is None or bounty.kind != "mystery":
            raise Conflict("not_a_mystery_bounty", _("This tournament has no mystery bounty."))
        started = Elimination.objects.filter(
            tournament=tournament, undone_at__isnull=True, bounty_phase=True
        ).exists()
        if started:
            raise Conflict(
                "mystery_phase_started", _("The envelopes are being drawn: they stay as they are.")
            )
        if not values or len(values) > MAX_ENVELOPES or any(v < 0 for v in values):
            raise InvalidInput("invalid_envelopes", _("Give 1 to 10,000 envelopes of 0 or more."))
        pool = tournament_summary(tournament).bounty_pool
        if sum(values) != pool:
            raise InvalidInput(
                "envelopes_sum",
                _("The envelopes add up to %(total)s; the bounty pool is %(pool)s.")
                % {"total": sum(values), "pool": pool},
            )
        envelopes_fix(actor, tournament, len(values), sorted(values, reverse=True))
    return envelopes_of(tournament)
