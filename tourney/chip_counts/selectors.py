"""Chip counts: the leaderboard, a table's count sheet and the check of the counts against the
chips in play (docs/rules.md §15.4)."""

from django.db.models import Q

from clocks.clock.selectors import clock_view
from tables.floor.selectors import pending_origins
from tourney.domain.festival import big_blinds, chip_ranks
from tourney.models import Entry, Tournament
from tourney.tournaments.selectors import tournament_summary


def big_blind_of(clock: dict) -> int | None:
    """The big blind in play in a clock view (on a break: the next level's)."""
    for key in ("period", "next_period"):
        period = clock.get(key) or {}
        if period.get("big_blind"):
            return int(period["big_blind"])
    return None


def current_big_blind(tournament: Tournament) -> int | None:
    """The tournament's big blind in play, for stacks in big blinds."""
    return big_blind_of(clock_view(tournament))


def counted_entries(tournament: Tournament) -> Q:
    """The stacks a tournament's counts are about: its players left; a finished flight's, its
    bags; a main event's before Day 2, every flight's bags."""
    if tournament.is_main_event and tournament.seats_drawn_at is None:
        return Q(tournament__main_event=tournament, status=Entry.Status.BAGGED)
    if tournament.main_event_id is not None and tournament.status == Tournament.Status.FINISHED:
        return Q(tournament=tournament, status=Entry.Status.BAGGED)
    return Q(tournament=tournament, status=Entry.Status.ACTIVE)


def chip_leaderboard(
    tournament: Tournament, limit: int | None = None, big_blind: int | None = None
) -> list[dict]:
    """Counted stacks, the chip leaders first: rank, entry, player, chips, table, seat, big
    blinds (and the flight for a main event before Day 2); players not yet counted are left
    out. `big_blind`: the caller's, when it has read the clock already."""
    rows = {
        e.pk: e
        for e in Entry.objects.filter(counted_entries(tournament), chips__isnull=False)
        .select_related("player", "tournament_table", "tournament")
        .only(
            "chips",
            "seat",
            "player__name",
            "tournament_table__number",
            "tournament__name",
            "tournament_id",
        )
    }
    ranks = chip_ranks({pk: e.chips for pk, e in rows.items()})
    if limit is not None:
        ranks = ranks[:limit]
    bb = big_blind or (current_big_blind(tournament) if ranks else None)
    out = []
    for r in ranks:
        e = rows[r.entry_id]
        out.append(
            {
                "rank": r.rank,
                "entry_id": e.pk,
                "player_name": e.player.name,
                "chips": r.chips,
                "table": e.tournament_table.number if e.tournament_table_id else None,
                "seat": e.seat,
                "big_blinds": big_blinds(r.chips, bb),
                "flight": e.tournament.name if e.tournament_id != tournament.pk else None,
            }
        )
    return out


def counts_check(tournament: Tournament) -> dict:
    """How far the counts are: players counted of those left, the chips counted against the
    chips in play, and the difference once everyone is counted (None before)."""
    stacks = list(Entry.objects.filter(counted_entries(tournament)).values_list("chips", flat=True))
    counted = [c for c in stacks if c is not None]
    in_play = tournament_summary(tournament).total_chips
    done = len(counted) == len(stacks)
    return {
        "players": len(stacks),
        "counted": len(counted),
        "chips_counted": sum(counted),
        "chips_in_play": in_play,
        "difference": sum(counted) - in_play if done and stacks else None,
    }


def table_sheet(tournament: Tournament, number: int) -> list[dict]:
    """A table's count sheet: each player really sitting there, by seat, with his last count
    (a flight's day over: its bags there, to be corrected until Day 2 is drawn). A pending
    mover is counted where he still sits, his old table (docs/rules.md §3.4), as the dealer's
    own page shows him."""
    bagged = tournament.main_event_id is not None and tournament.status == "finished"
    status = Entry.Status.BAGGED if bagged else Entry.Status.ACTIVE  # a bag corrected
    left = list(
        Entry.objects.filter(tournament=tournament, status=status)
        .select_related("player", "tournament_table")
        .only("chips", "chips_at", "seat", "player__name", "tournament_table__number")
    )
    origins = pending_origins(tournament, [e.pk for e in left])
    rows = []
    for e in left:
        table, seat = origins.get(e.pk, (None, None))[:2] if e.pk in origins else (None, None)
        if table is None:
            table, seat = (e.tournament_table.number if e.tournament_table_id else None), e.seat
        if table == number:
            rows.append(
                {
                    "entry_id": e.pk,
                    "seat": seat,
                    "player_name": e.player.name,
                    "chips": e.chips,
                    "chips_at": e.chips_at,
                }
            )
    return sorted(rows, key=lambda r: r["seat"] or 0)


def entry_rank(tournament: Tournament, entry: Entry) -> tuple[int, int] | None:
    """A player's place among the counted stacks and how many are counted (his own page)."""
    if entry.chips is None:
        return None
    stacks = dict(
        Entry.objects.filter(counted_entries(tournament), chips__isnull=False).values_list(
            "pk", "chips"
        )
    )
    for r in chip_ranks(stacks):
        if r.entry_id == entry.pk:
            return r.rank, len(stacks)
    return None
