"""Color-ups at the breaks (docs/rules.md §8): one table's round-up or chip race, its confirmation
and undo, chips found later: the use cases. What is read and worked out (which tables are done,
the outcome at a table) is in `selectors`.

Units: chip values are integers; odd chips are counted in the break's `unit`
(clocks.domain.colorup.ColorUpStep: k of them make one chip of the new smallest value D).
A race may be dealt first and confirmed after the players saw the cards (`confirm=False`,
status "open"); only a done color-up changes the chips in play (`Tournament.chips_color_up`,
by its `chips_change`), and its undo takes that back. Nothing here eliminates anyone.
"""

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.clock.selectors import now_ms
from clocks.color_ups.selectors import (
    color_up_check_free,
    color_up_out,
    color_up_outcome,
    color_up_step_for,
    color_ups_status,
)
from clocks.domain.chip_race import (
    ChipRaceError,
    found_chips_exchange,
)
from clocks.models import ColorUp
from tables.seating.selectors import table_in_play
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound, refusal
from tourney.core.locks import tournament_lock
from tourney.events.log import event_append
from tourney.models import Tournament
from tourney.tournaments.selectors import tournament_rules


def _event(tournament: Tournament, color_up: ColorUp, row: dict) -> None:
    status = color_ups_status(tournament, period_index=color_up.period_index)
    event_append(
        tournament,
        "color_up",
        {
            "id": color_up.pk,
            "table": row["table"],
            "period_index": color_up.period_index,
            "status": color_up.status,
            "method": color_up.method,
            "chips_change": color_up.chips_change,
            "tables_done": status["tables_done"],
            "tables_total": status["tables_total"],
            "all_done": status["all_done"],
            "chips_color_up": tournament.chips_color_up,
        },
    )


def _add_chips(tournament: Tournament, change: int) -> None:
    tournament.chips_color_up += change
    Tournament.objects.filter(pk=tournament.pk).update(chips_color_up=tournament.chips_color_up)


def _audit_params(row: dict) -> dict:
    return {"t": row["table"], "chips": ", ".join(f"{v:,}" for v in row["removed"])}


def color_up_run(
    *,
    actor,
    tournament_id: int,
    table_number: int,
    seats: Sequence[Mapping[str, Any]],
    method: str | None = None,
    cards: Mapping[Any, Sequence[Any]] | None = None,
    confirm: bool = True,
    override: bool = False,
    period_index: int | None = None,
    rng: random.Random | None = None,
) -> dict:
    """Color up one table: round its stacks up, or race off its odd chips with the cards the
    dealer dealt (`cards`) or a virtual deal from a recorded server seed. `confirm=False`
    (race) keeps it "open" to show the cards first; otherwise it is done at once and its
    chips change counts. `override` (the director's) allows it outside a color-up break."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        table = table_in_play(tournament, table_number)
        step, periods = color_up_step_for(tournament, override, period_index)
        color_up_check_free(table, step.period_index)
        rules = tournament_rules(tournament)
        method = method or rules.color_up_method
        seed = None
        if method == ColorUp.Method.RACE and not cards and rng is None:
            seed = secrets.randbits(64)
            rng = random.Random(seed)
        rows, details, change = color_up_outcome(step, rules, method, table, seats, cards, rng)
        done = confirm or method == ColorUp.Method.ROUND_UP
        now = timezone.now()
        color_up = ColorUp.objects.create(
            tournament=tournament,
            tournament_table=table,
            period_index=step.period_index,
            method=method,
            removed_values=list(step.removed),
            denomination=step.denomination,
            status=ColorUp.Status.DONE if done else ColorUp.Status.OPEN,
            seats=rows,
            cards_recorded=bool(cards),
            chips_change=change or 0,
            details=details | ({"override": True} if override else {}),
            created_at=now,
            done_at=now if done else None,
            by=actor if actor is not None and actor.is_authenticated else None,
        )
        if done:
            _add_chips(tournament, color_up.chips_change)
        row = color_up_out(color_up, periods)
        params = _audit_params(row) | {"change": f"{color_up.chips_change:+,}"}
        if method == ColorUp.Method.ROUND_UP:
            summary = gettext_noop("Table %(t)s rounded up (%(chips)s out): chips %(change)s")
        elif done:
            summary = gettext_noop("Table %(t)s raced off the %(chips)s chips: chips %(change)s")
        else:
            summary = gettext_noop("Table %(t)s dealt the race for the %(chips)s chips")
        audit_record(
            actor=actor,
            action="color_up.run",
            summary=audit_text(summary, params),
            tournament=tournament,
            target=color_up,
            after=row | ({"seed": seed} if seed is not None else {}),
        )
        _event(tournament, color_up, row)
        return row


def _locked_color_up(tournament: Tournament, color_up_id: int) -> ColorUp:
    color_up = (
        ColorUp.objects.select_related("tournament_table", "tournament")
        .filter(tournament=tournament, pk=color_up_id)
        .first()
    )
    if color_up is None:
        raise NotFound("color_up_not_found", _("There is no such color-up."))
    return color_up


def color_up_confirm(*, actor, tournament_id: int, color_up_id: int) -> dict:
    """The players saw the cards: the race stands and its chips change counts."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        color_up = _locked_color_up(tournament, color_up_id)
        if color_up.status != ColorUp.Status.OPEN:
            raise Conflict(
                "color_up_not_open",
                _("This color-up is not waiting for a confirmation (it is %(s)s).")
                % {"s": color_up.get_status_display().lower()},
            )
        before = color_up_out(color_up)
        color_up.status = ColorUp.Status.DONE
        color_up.done_at = timezone.now()
        color_up.save(update_fields=["status", "done_at"])
        _add_chips(tournament, color_up.chips_change)
        row = color_up_out(color_up)
        audit_record(
            actor=actor,
            action="color_up.confirm",
            summary=audit_text(
                gettext_noop("Table %(t)s raced off the %(chips)s chips: chips %(change)s"),
                _audit_params(row) | {"change": f"{color_up.chips_change:+,}"},
            ),
            tournament=tournament,
            target=color_up,
            before=before,
            after=row,
        )
        _event(tournament, color_up, row)
        return row


def color_up_undo(*, actor, tournament_id: int, color_up_id: int) -> dict:
    """Take back a table's color-up (a dealt race not confirmed is discarded): the chips in
    play lose its change again, and the table can color up anew. The record stays."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        color_up = _locked_color_up(tournament, color_up_id)
        if color_up.status == ColorUp.Status.UNDONE:
            raise Conflict("color_up_undone", _("This color-up was undone already."))
        before = color_up_out(color_up)
        was_done = color_up.status == ColorUp.Status.DONE
        color_up.status = ColorUp.Status.UNDONE
        color_up.save(update_fields=["status"])
        if was_done:
            _add_chips(tournament, -color_up.chips_change)
        row = color_up_out(color_up)
        audit_record(
            actor=actor,
            action="color_up.undo",
            summary=audit_text(
                gettext_noop("Color-up at table %(t)s undone: chips %(change)s")
                if was_done
                else gettext_noop("Race dealt at table %(t)s discarded"),
                _audit_params(row) | {"change": f"{-color_up.chips_change if was_done else 0:+,}"},
            ),
            tournament=tournament,
            target=color_up,
            before=before,
            after=row,
        )
        _event(tournament, color_up, row)
        return row


def color_up_found(*, actor, tournament_id: int, color_up_id: int, seat: int, value: int) -> dict:
    """Removed-colour chips worth `value` found at `seat` after the table colored up (TDA
    24-C): exchanged at equal value in D chips, the rest below D leaves play."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        color_up = _locked_color_up(tournament, color_up_id)
        if color_up.status != ColorUp.Status.DONE:
            raise Conflict(
                "color_up_not_done", _("Chips found are exchanged after a done color-up only.")
            )
        if seat not in {r["seat"] for r in color_up.seats}:
            raise InvalidInput(
                "seat_empty", _("Nobody played in seat %(s)s at this color-up.") % {"s": seat}
            )
        try:
            found = found_chips_exchange(value, color_up.denomination)
        except ChipRaceError as exc:
            raise refusal(exc, InvalidInput) from exc
        before = color_up_out(color_up)
        record = {
            "seat": seat,
            "value": value,
            "exchanged": found.exchanged,
            "removed": found.removed,
            "at_ms": now_ms(),
        }
        color_up.details = {
            **color_up.details,
            "found": [*color_up.details.get("found", []), record],
        }
        color_up.chips_change -= found.removed
        color_up.save(update_fields=["details", "chips_change"])
        _add_chips(tournament, -found.removed)
        row = color_up_out(color_up)
        audit_record(
            actor=actor,
            action="color_up.found",
            summary=audit_text(
                gettext_noop(
                    "Table %(t)s seat %(s)s: %(value)s in old chips found, %(exchanged)s "
                    "exchanged, %(removed)s removed"
                ),
                {
                    "t": row["table"],
                    "s": seat,
                    "value": f"{value:,}",
                    "exchanged": f"{found.exchanged:,}",
                    "removed": f"{found.removed:,}",
                },
            ),
            tournament=tournament,
            target=color_up,
            before=before,
            after=row,
        )
        _event(tournament, color_up, row)
        return row | {"exchanged": found.exchanged, "removed_value": found.removed}
