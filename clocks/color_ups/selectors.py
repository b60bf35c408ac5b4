"""What is read and worked out of the color-ups (docs/rules.md §8), nothing saved: which break
and which chips, the dealer's counts read, the outcome at one table (the preview, and what
`color_up_run` stores), each color-up as shown, and which tables are done.

Units: chip values are integers; odd chips are counted in the break's `unit`
(clocks.domain.colorup.ColorUpStep: k of them make one chip of the new smallest value D).
"""

import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from clocks.clock.selectors import clock_view, structure_periods
from clocks.domain.chip_race import (
    ChipRaceError,
    chip_race,
    plan_race,
    round_up_stacks,
)
from clocks.domain.colorup import (
    ColorUpStep,
    color_up_break_for,
    color_up_breaks,
    color_up_step,
)
from clocks.domain.structures import Period
from clocks.models import ColorUp
from tables.domain.cards import Card
from tables.models import TournamentTable
from tables.seating.selectors import table_in_play
from tourney.core.errors import Conflict, InvalidInput, refusal
from tourney.domain.house_rules_params import HouseRules
from tourney.models import Entry, Tournament
from tourney.tournaments.selectors import tournament_rules

METHODS = (ColorUp.Method.ROUND_UP, ColorUp.Method.RACE)


LIVE = (ColorUp.Status.OPEN, ColorUp.Status.DONE)


def _chip_values(tournament: Tournament) -> list[int]:
    return sorted({int(c.get("value", 0)) for c in tournament.structure.chips} - {0})


def break_number(periods: Sequence[Period], index: int) -> int:
    """1-based number of the break at `index` among the structure's breaks."""
    return sum(1 for p in periods[: index + 1] if p.kind == "break")


def color_up_step_for(
    tournament: Tournament, override: bool, period_index: int | None = None
) -> tuple[ColorUpStep, list[Period]]:
    """The color-up a table does now: the current break's, or with the director's override
    the named break's (or the latest / next one). Refused `not_a_color_up_break`."""
    periods = structure_periods(tournament.structure_id)
    clock = clock_view(tournament)
    playing = clock["status"] in ("running", "paused")
    if override and period_index is not None:
        target = period_index if period_index in color_up_breaks(periods) else None
    else:
        target = color_up_break_for(periods, clock["period_index"], override) if playing else None
    step = color_up_step(_chip_values(tournament), periods, target) if target is not None else None
    if step is None:
        raise Conflict(
            "not_a_color_up_break",
            _("Chips are colored up only during a break that removes chips; this is not one.")
            if playing
            else _(
                "The clock is not running: chips are colored up during a break that removes them."
            ),
        )
    return step, periods


def _players(table: TournamentTable) -> dict[int, tuple[int, str]]:
    """Seat -> (entry id, player name) of the players at `table`."""
    rows = Entry.objects.filter(
        seat_row__tournament_table=table, status=Entry.Status.ACTIVE
    ).values_list("seat", "pk", "player__name")
    return {seat: (entry_id, name) for seat, entry_id, name in rows if seat}


def color_up_check_free(table: TournamentTable, period_index: int) -> None:
    existing = (
        ColorUp.objects.filter(tournament_table=table, period_index=period_index, status__in=LIVE)
        .values_list("status", flat=True)
        .first()
    )
    if existing == ColorUp.Status.DONE:
        raise Conflict(
            "already_colored_up",
            _("Table %(t)s has colored up at this break already: undo it first to redo it.")
            % {"t": table.number},
        )
    if existing == ColorUp.Status.OPEN:
        raise Conflict(
            "color_up_open",
            _("A race is dealt at table %(t)s and waits: confirm it or discard it first.")
            % {"t": table.number},
        )


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _seat_rows(
    seats: Sequence[Mapping[str, Any]], table: TournamentTable, players: Mapping[int, Any]
) -> dict[int, Mapping[str, Any]]:
    by_seat: dict[int, Mapping[str, Any]] = {}
    for row in seats:
        seat = _whole(row.get("seat"))
        if seat is None or not 1 <= seat <= table.seats:
            raise InvalidInput(
                "unknown_seat",
                _("Table %(t)s has seats 1 to %(n)s, not %(s)s.")
                % {"t": table.number, "n": table.seats, "s": row.get("seat")},
            )
        if seat in by_seat:
            raise InvalidInput("duplicate_seat", _("Seat %(s)s is listed twice.") % {"s": seat})
        if seat not in players:
            raise InvalidInput(
                "seat_empty", _("Nobody plays in seat %(s)s of this table.") % {"s": seat}
            )
        for field in ("odd_chips", "stack"):
            value = row.get(field)
            if value is not None and (_whole(value) is None or value < 0):
                raise InvalidInput(
                    "invalid_count",
                    _("Seat %(s)s: chips are counted in whole numbers from 0.") % {"s": seat},
                )
        by_seat[seat] = row
    return by_seat


def parse_cards(cards: Mapping[Any, Sequence[Any]]) -> dict[int, list[Card]]:
    """Seat -> the cards dealt, from {"4": ["Ks", "9d"]}; refused `bad_card`."""
    parsed: dict[int, list[Card]] = {}
    for key, codes in cards.items():
        seat = int(key) if str(key).isdigit() else None
        if seat is None or isinstance(codes, str | bytes) or not isinstance(codes, Sequence):
            raise InvalidInput(
                "bad_card", _("Cards are given per seat number: a list of cards for each seat.")
            )
        hand = []
        for code in codes:
            try:
                hand.append(Card.from_code(str(code).strip()))
            except ValueError:
                raise InvalidInput(
                    "bad_card",
                    _("Seat %(s)s: %(card)s is not a card (write e.g. As, Kh, 10d, 9c).")
                    % {"s": seat, "card": code},
                ) from None
        parsed[seat] = hand
    return parsed


def color_up_base_out(
    step: ColorUpStep, periods: Sequence[Period], table: int, method: str
) -> dict:
    return {
        "id": None,
        "table": table,
        "period_index": step.period_index,
        "break_number": break_number(periods, step.period_index),
        "method": method,
        "status": "preview",
        "removed": list(step.removed),
        "denomination": step.denomination,
        "unit": step.unit,
        "k": step.k,
    }


def _round_up(
    step: ColorUpStep, players: Mapping[int, tuple[int, str]], rows: Mapping[int, Mapping]
) -> tuple[list[dict], dict, int]:
    """Method A: each counted stack up to the next multiple of D. A seat gives its whole
    `stack`, or only its `odd_chips` (then the increase is known, the stack is not)."""
    stacks: dict[int, int] = {}
    for seat, row in rows.items():
        if row.get("stack") is not None:
            stacks[seat] = row["stack"]
        elif row.get("odd_chips") is not None:
            if row["odd_chips"] >= step.k:
                raise InvalidInput(
                    "odd_chips_too_many",
                    _(
                        "Seat %(s)s has %(k)s or more odd chips: change up every full group "
                        "of %(k)s first."
                    )
                    % {"s": seat, "k": step.k},
                )
            stacks[seat] = row["odd_chips"] * step.unit
    try:
        result = round_up_stacks(stacks, step.denomination)
    except ChipRaceError as exc:
        raise refusal(exc, InvalidInput) from exc
    out = []
    for seat, (entry_id, name) in sorted(players.items()):
        row = rows.get(seat, {})
        whole = row.get("stack") is not None
        counted = seat in stacks
        out.append(
            {
                "seat": seat,
                "entry_id": entry_id,
                "player_name": name,
                "odd_chips": None if whole or not counted else row["odd_chips"],
                "stack_before": stacks[seat] if whole else None,
                "increase": result.increases[seat] if counted else 0,
                "stack_after": result.new_stacks[seat] if whole else None,
                "counted": counted,
            }
        )
    details = {"unit": step.unit, "k": step.k}
    return out, details, result.total_increase


def _race(
    step: ColorUpStep,
    rules: HouseRules,
    players: Mapping[int, tuple[int, str]],
    rows: Mapping[int, Mapping],
    cards: dict[int, list[Card]] | None,
    rng: random.Random | None,
) -> tuple[list[dict], dict, int | None]:
    """Method B (TDA 24). Without cards nor a random source, only the plan: who is dealt
    how many cards (chips change None: not known before the deal)."""
    odd = {seat: rows.get(seat, {}).get("odd_chips") or 0 for seat in players}
    zero = {seat for seat in players if rows.get(seat, {}).get("zero_stack") and odd[seat] == 0}
    if zero:
        raise InvalidInput(
            "no_chips",
            _("Seat %(s)s has no chips at all: report the bust-out instead.") % {"s": min(zero)},
        )
    # The domain needs only whether a player holds chips besides the odd ones.
    held = {seat: 0 if rows.get(seat, {}).get("zero_stack") else 1 for seat in players}
    args = (odd, held, step.k, rules.race_rounding, rules.zero_stack_chip)
    try:
        if cards is None and rng is None:
            plan = plan_race(*args, rules.race_start_seat)
            # No cards to deal: the outcome is known already (every racer wins, or none).
            decided = not plan.deal_order
            race = (
                chip_race(*args, start_seat=rules.race_start_seat, old_value=step.unit)
                if decided
                else None
            )
        else:
            race = chip_race(
                *args, rng=rng, cards=cards, start_seat=rules.race_start_seat, old_value=step.unit
            )
            plan = race.plan
    except ChipRaceError as exc:
        raise refusal(exc, InvalidInput) from exc
    ranking = {seat: i + 1 for i, seat in enumerate(race.ranking)} if race else {}
    out = []
    for seat, (entry_id, name) in sorted(players.items()):
        dealt = race.cards.get(seat, ()) if race else ()
        out.append(
            {
                "seat": seat,
                "entry_id": entry_id,
                "player_name": name,
                "odd_chips": odd[seat],
                "zero_stack": held[seat] == 0,
                "cards_needed": plan.cards_needed.get(seat, 0),
                "cards": [c.code for c in dealt],
                "best_card": max(dealt).code if dealt else None,
                "rank": ranking.get(seat),
                "winner": bool(race) and seat in race.winners,
                "zero_stack_chip": bool(race) and seat in race.zero_stack_chips,
                "chips_awarded": (1 if seat in race.awarded else 0) if race else None,
            }
        )
    details = {
        "unit": step.unit,
        "k": step.k,
        "rounding": rules.race_rounding,
        "zero_stack": rules.zero_stack_chip,
        "start_seat": rules.race_start_seat,
        "total_odd": plan.total_odd,
        "race_chips": plan.race_chips,
        "chips_to_race": plan.chips_to_race,
        "deal_order": list(plan.deal_order),
        "extra_chips": race.extra_chips if race else None,
    }
    return out, details, race.chips_in_play_change if race else None


def color_up_outcome(
    step: ColorUpStep,
    rules: HouseRules,
    method: str,
    table: TournamentTable,
    seats: Sequence[Mapping[str, Any]],
    cards: Mapping[Any, Sequence[Any]] | None,
    rng: random.Random | None,
) -> tuple[list[dict], dict, int | None]:
    if method not in METHODS:
        raise InvalidInput(
            "invalid_method", _("The method is round_up or race, not %(m)s.") % {"m": method}
        )
    players = _players(table)
    rows = _seat_rows(seats, table, players)
    if method == ColorUp.Method.ROUND_UP:
        if cards:
            raise InvalidInput("cards_not_needed", _("Rounding up deals no cards."))
        return _round_up(step, players, rows)
    return _race(step, rules, players, rows, parse_cards(cards) if cards else None, rng)


def color_up_summary(rows: list[dict], details: dict, chips_change: int | None) -> dict:
    """The numbers a person reads first, from the seat rows."""
    return {
        "rounding": details.get("rounding"),
        "zero_stack_rule": details.get("zero_stack"),
        "total_odd": details.get("total_odd"),
        "race_chips": details.get("race_chips"),
        "chips_to_race": details.get("chips_to_race"),
        "extra_chips": details.get("extra_chips"),
        "deal_order": details.get("deal_order", []),
        "decided": chips_change is not None,
        "winners": [
            r["seat"] for r in sorted(rows, key=lambda r: r.get("rank") or 99) if r.get("winner")
        ],
        "zero_stack_chips": [r["seat"] for r in rows if r.get("zero_stack_chip")],
        "chips_change": chips_change,
        "found": details.get("found", []),
    }


def color_up_preview(
    tournament: Tournament,
    *,
    table_number: int,
    seats: Sequence[Mapping[str, Any]],
    method: str | None = None,
    cards: Mapping[Any, Sequence[Any]] | None = None,
    override: bool = False,
    period_index: int | None = None,
) -> dict:
    """What a table's color-up would give, nothing saved: a round-up's new stacks, a race's
    plan (which seats get how many cards; the outcome too when the cards are given)."""
    table = table_in_play(tournament, table_number)
    step, periods = color_up_step_for(tournament, override, period_index)
    rules = tournament_rules(tournament)
    method = method or rules.color_up_method
    rows, details, change = color_up_outcome(step, rules, method, table, seats, cards, None)
    return (
        color_up_base_out(step, periods, table.number, method)
        | color_up_summary(rows, details, change)
        | {
            "seats": rows,
            "cards_recorded": bool(cards),
            "created_at_ms": None,
            "done_at_ms": None,
        }
    )


def epoch_ms(value) -> int | None:
    return int(value.timestamp() * 1000) if value else None


def color_up_out(color_up: ColorUp, periods: Sequence[Period] | None = None) -> dict:
    """API row of a stored color-up."""
    periods = (
        periods if periods is not None else structure_periods(color_up.tournament.structure_id)
    )
    details = color_up.details or {}
    step = ColorUpStep(
        color_up.period_index,
        tuple(color_up.removed_values),
        color_up.denomination,
        details.get("unit", 1),
        details.get("k", color_up.denomination),
    )
    out = color_up_base_out(step, periods, color_up.tournament_table.number, color_up.method)
    return (
        out
        | color_up_summary(color_up.seats, details, color_up.chips_change)
        | {
            "id": color_up.pk,
            "status": color_up.status,
            "seats": color_up.seats,
            "cards_recorded": color_up.cards_recorded,
            "created_at_ms": epoch_ms(color_up.created_at),
            "done_at_ms": epoch_ms(color_up.done_at),
        }
    )


def color_ups_status(tournament: Tournament, period_index: int | None = None) -> dict:
    """The color-up of the current break (or of the break at `period_index`): every table's
    state, "open" (to do), "dealt" (a race waiting for its confirmation) or "done".

    `active` is true while the clock is on that break. Tables listed: those in play, and any
    table that colored up at that break and has been broken since.
    """
    periods = structure_periods(tournament.structure_id)
    clock = clock_view(tournament)
    playing = clock["status"] in ("running", "paused")
    current = clock["period_index"]
    target = period_index
    if target is None and playing:
        target = color_up_break_for(periods, current, override=False)
    step = color_up_step(_chip_values(tournament), periods, target) if target is not None else None
    upcoming = [i for i in color_up_breaks(periods) if i > current]
    nxt = upcoming[0] if upcoming else None
    out: dict[str, Any] = {
        "active": bool(step) and playing and target == current,
        "period_index": step.period_index if step else None,
        "break_number": break_number(periods, step.period_index) if step else None,
        "removed": list(step.removed) if step else [],
        "denomination": step.denomination if step else None,
        "unit": step.unit if step else None,
        "k": step.k if step else None,
        "method": tournament_rules(tournament).color_up_method,
        "next": {
            "period_index": nxt,
            "break_number": break_number(periods, nxt),
            "removed": sorted(periods[nxt].color_up),
        }
        if nxt is not None
        else None,
        "tables": [],
        "tables_done": 0,
        "tables_total": 0,
        "all_done": False,
        "chips_change": 0,
        "chips_color_up": tournament.chips_color_up,
    }
    if step is None:
        return out
    color_ups = list(
        ColorUp.objects.select_related("tournament_table", "tournament").filter(
            tournament=tournament, period_index=step.period_index, status__in=LIVE
        )
    )
    by_table = {c.tournament_table.number: c for c in color_ups}
    numbers = set(
        TournamentTable.objects.filter(
            tournament=tournament, status=TournamentTable.Status.OPEN
        ).values_list("number", flat=True)
    ) | set(by_table)
    state = {ColorUp.Status.OPEN: "dealt", ColorUp.Status.DONE: "done"}
    tables = []
    for number in sorted(numbers):
        color_up = by_table.get(number)
        tables.append(
            {
                "table": number,
                "status": state[color_up.status] if color_up else "open",
                "color_up_id": color_up.pk if color_up else None,
                "method": color_up.method if color_up else None,
                "chips_change": color_up.chips_change if color_up else 0,
            }
        )
    done = [t for t in tables if t["status"] == "done"]
    out |= {
        "tables": tables,
        "tables_done": len(done),
        "tables_total": len(tables),
        "all_done": bool(tables) and len(done) == len(tables),
        "chips_change": sum(t["chips_change"] for t in done),
    }
    return out


def color_up_for_table(
    tournament: Tournament, table_number: int, period_index: int
) -> ColorUp | None:
    """The table's live (dealt or done) color-up at the break, if any."""
    return (
        ColorUp.objects.select_related("tournament_table", "tournament")
        .filter(
            tournament=tournament,
            tournament_table__number=table_number,
            period_index=period_index,
            status__in=LIVE,
        )
        .first()
    )


def color_up_display(tournament: Tournament) -> dict | None:
    """What a lobby screen says during a color-up break (None otherwise): the chips that go,
    the method, and how many tables are done (once all are, the chips in play are final)."""
    status = color_ups_status(tournament)
    if not status["active"]:
        return None
    # The method the tables used (the house rule's until one is dealt; "mixed" if they differ).
    used = {t["method"] for t in status["tables"] if t["method"]}
    method = (used.pop() if len(used) == 1 else "mixed") if used else status["method"]
    return {"method": method} | {
        key: status[key]
        for key in (
            "period_index",
            "removed",
            "denomination",
            "tables_done",
            "tables_total",
            "all_done",
            "chips_change",
        )
    }
