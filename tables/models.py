"""Rooms, their physical tables and seats, and the tables a tournament plays on."""

import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Room(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The room's gaming day starts (and a day's ban ends) at this local time, not at midnight
    # (docs/rules.md §10.5; Mirage 000:551 "kizárás a játéknapról").
    gaming_day_starts = models.TimeField(_("gaming day starts"), default=datetime.time(6, 0))
    # Who runs the room (Mirage 000:6-14: one company per room), on receipts and results.
    operator_name = models.CharField(_("operator"), max_length=200, blank=True)
    operator_address = models.CharField(_("operator's address"), max_length=300, blank=True)
    operator_tax_number = models.CharField(_("tax number"), max_length=40, blank=True)
    # The room's festival lobby board link (clocks/festival): revoking bumps it.
    board_link_generation = models.PositiveIntegerField(default=0)
    # The cash games' house rules (docs/rules.md §20.7): a profile and its values changed.
    cash_house_rules = models.CharField(
        _("cash games' house rules"), max_length=20, default="tda2024"
    )
    cash_rules = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    """A physical table of a room; `seats` is how many chairs it has (numbered 1..seats)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("number"))
    seats = models.PositiveSmallIntegerField(_("seats"))

    class Meta:
        ordering = ["room_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="table_number_unique_in_room"),
            models.CheckConstraint(
                condition=models.Q(seats__gte=2) & models.Q(seats__lte=12), name="table_seats_2_12"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.room} #{self.number}"


class SeatRestriction(models.Model):
    """A seat the draw and automatic moves never use: blocked (broken chair) or reserved."""

    class Kind(models.TextChoices):
        BLOCKED = "blocked", _("blocked")
        RESERVED = "reserved", _("reserved")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="restrictions")
    seat = models.PositiveSmallIntegerField(_("seat"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_restriction_per_seat"),
        ]


class TournamentTable(models.Model):
    """A room table as one tournament uses it: opening order, state and the button."""

    class Status(models.TextChoices):
        IDLE = "idle", _("not in play")
        OPEN = "open", _("in play")
        CLOSED = "closed", _("broken")

    tournament = models.ForeignKey(
        "tourney.Tournament", on_delete=models.CASCADE, related_name="tournament_tables"
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField(_("table number"))
    open_order = models.PositiveIntegerField()
    seats = models.PositiveSmallIntegerField(_("seats in play"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.IDLE)
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Positions of the hand being played now (or next to be dealt); SB None = no SB posted.
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    small_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    big_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The empty seat the small blind would have posted from; the next dead button lands there.
    dead_small_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    hands_played = models.PositiveIntegerField(default=0)
    # Hand-for-hand: the last hand-for-hand hand this table reported finished.
    h4h_hand_done = models.PositiveIntegerField(default=0)
    button_draw = models.JSONField(default=list, blank=True)
    # Playing entries seated here, kept by triggers on the entry table (migration 0006):
    # never written by Django, read where counting the entries of every table cost too much.
    players = models.PositiveSmallIntegerField(default=0, db_default=0, editable=False)
    # The table's dealer link (tables/dealer_links): revoking bumps it, killing the old link.
    dealer_link_generation = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament_id", "open_order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "table"], name="tournament_table_once"),
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournament_table_number"
            ),
        ]
        indexes = [
            # The floor's counts after a bust-out: an index-only scan, the fewest and most
            # players one step each (tables.floor.selectors.field_shape_select).
            models.Index(
                fields=["tournament", "status", "players"], name="tournamenttable_players"
            ),
        ]

    def __str__(self) -> str:
        return f"T{self.number}"

    def save(self, *args, **kwargs) -> None:
        # A full save would write back a `players` read before the seating changed.
        if self.pk is not None and kwargs.get("update_fields") is None and not self._state.adding:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "players"
            ]
        super().save(*args, **kwargs)


class Seat(models.Model):
    """A playing entry's table and seat (none yet before the draw), as the database keeps them
    from the entry's own columns (tourney/core/db_triggers.py): one row for each playing entry.

    The seat's uniqueness and every read by table live here, not in the entry table: that
    table keeps no index on its table or seat, so the draw's UPDATE of 25,000 entries changes
    no indexed column and PostgreSQL writes each new row version in its own page (a heap-only
    update) instead of into every index (docs/benchmarks.md, "Seats in a table of their
    own"). Written by the triggers only; read with `Entry.objects.filter(seat_row__...)`.
    """

    entry = models.OneToOneField(
        "tourney.Entry",
        primary_key=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="seat_row",
    )
    tournament = models.ForeignKey(
        "tourney.Tournament",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        db_index=False,
        related_name="+",
    )
    tournament_table = models.ForeignKey(
        TournamentTable,
        null=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        db_index=False,
        related_name="seat_rows",
    )
    seat = models.PositiveSmallIntegerField(null=True)

    class Meta:
        constraints = [
            # Two playing entries never in one seat (docs/rules.md §3.2).
            models.UniqueConstraint(
                fields=["tournament_table", "seat"], name="one_player_per_table_seat"
            ),
        ]
        indexes = [
            # The players left without a seat, counted at every bust-out: a range of the
            # few (usually none), not a walk through every playing entry.
            models.Index(
                fields=["tournament"],
                condition=models.Q(tournament_table__isnull=True),
                name="seat_unseated",
            ),
        ]

    def __str__(self) -> str:
        return f"T{self.tournament_table_id} S{self.seat}"


class HandReport(models.Model):
    """A dealer's report that a hand finished; records the positions for the next hand."""

    tournament_table = models.ForeignKey(
        TournamentTable, on_delete=models.CASCADE, related_name="hand_reports"
    )
    hand_number = models.PositiveIntegerField()
    reported_at = models.DateTimeField()
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    button_seat = models.PositiveSmallIntegerField()
    small_blind_seat = models.PositiveSmallIntegerField(null=True)
    big_blind_seat = models.PositiveSmallIntegerField()
    button_set_by_dealer = models.BooleanField(default=False)
    # A misdeal is reported too; with its redeal it counts as one hand (TDA 35-C).
    misdeal = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament_table_id", "hand_number"]


class FloorAction(models.Model):
    """An item of the floor's to-do list: a seat move, a table break or the final-table redraw.

    Moves are applied to the seating at once (the chart shows where a player must go) and stay
    `pending` until the floor confirms them; a move whose mover is not known yet (the source
    table's button is unknown) has no `entry` and is applied when the floor names the player.
    A break or redraw is a parent with one child `move` per player. `payload` keeps what the
    slip prints (cards dealt, the seat pool) and `before`, the seats to restore on undo.
    """

    class Kind(models.TextChoices):
        MOVE = "move", _("Move")
        BREAK_TABLE = "break_table", _("Break table")
        FINAL_TABLE_REDRAW = "final_table_redraw", _("Final-table redraw")

    class Status(models.TextChoices):
        PENDING = "pending", _("To do")
        DONE = "done", _("Done")
        UNDONE = "undone", _("Undone")
        # A later break or redraw moved the player again before this move was confirmed.
        SUPERSEDED = "superseded", _("Replaced")

    tournament = models.ForeignKey(
        "tourney.Tournament", on_delete=models.CASCADE, related_name="floor_actions"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    entry = models.ForeignKey(
        "tourney.Entry", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    from_table = models.PositiveIntegerField(null=True, blank=True)
    from_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    to_table = models.PositiveIntegerField(null=True, blank=True)
    to_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The source table's hands_played when planned: the mover is that hand's next big blind.
    at_hand = models.PositiveIntegerField(null=True, blank=True)
    cause = models.ForeignKey(
        "tourney.Elimination", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    payload = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    done_at = models.DateTimeField(null=True, blank=True)
    done_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament_id", "id"]
        indexes = [models.Index(fields=["tournament", "status"])]


class ClockCall(models.Model):
    """A clock called on a player (docs/rules.md §9): time to act, then the closing countdown."""

    class Outcome(models.TextChoices):
        ACTED = "acted", _("Acted in time")
        EXPIRED = "expired", _("Time expired")
        CANCELLED = "cancelled", _("Cancelled")

    tournament = models.ForeignKey(
        "tourney.Tournament", on_delete=models.CASCADE, related_name="clock_calls"
    )
    tournament_table = models.ForeignKey(
        TournamentTable, on_delete=models.CASCADE, related_name="clock_calls"
    )
    seat = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(
        "tourney.Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Who asked for it: a player present at the table (Veszprém 002:240); None when not said.
    caller_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    called_at_ms = models.BigIntegerField()
    seconds = models.PositiveIntegerField()
    countdown_seconds = models.PositiveIntegerField()
    ends_at_ms = models.BigIntegerField()
    final_table = models.BooleanField(default=False)
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    ended_at_ms = models.BigIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)

    class Meta:
        ordering = ["tournament_id", "id"]


# --- cash games (docs/rules.md §20) --------------------------------------------------------


class CashTable(models.Model):
    """A room's table dealing a cash game at its blinds, opened and closed by the floor. A
    must-move table feeds `must_move_for`, the main game of its game and blinds (§20.4)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="cash_tables")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField(_("table number"))
    seats = models.PositiveSmallIntegerField(_("seats"))
    game = models.CharField(max_length=20)
    game_limit = models.CharField(max_length=20)
    small_blind = models.PositiveIntegerField()
    big_blind = models.PositiveIntegerField()
    min_buy_in = models.PositiveIntegerField()
    max_buy_in = models.PositiveIntegerField()
    straddle = models.BooleanField(default=False)
    must_move_for = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="feeders"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    # The seats taken, kept by the use cases with the seats (the list page reads no join).
    players = models.PositiveSmallIntegerField(default=0)
    # The hand being dealt, as the dealer keeps it (§20.6): the button and the blinds' seats.
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    small_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    big_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["room_id", "number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(status="open"), name="cashtable_open_once"
            ),
            models.CheckConstraint(
                condition=models.Q(big_blind__gte=models.F("small_blind"))
                & models.Q(max_buy_in__gte=models.F("min_buy_in")),
                name="cashtable_stakes_in_order",
            ),
        ]


class CashSeat(models.Model):
    """A player at a cash table: one seat a player in the whole room (§20.2), one player a
    seat. `away_since` while he is away from the table (§20.5); `owes` the blinds he missed."""

    cash_table = models.ForeignKey(CashTable, on_delete=models.CASCADE, related_name="taken")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey("tourney.Player", on_delete=models.PROTECT, related_name="+")
    seated_at = models.DateTimeField()
    away_since = models.DateTimeField(null=True, blank=True)
    owes = models.JSONField(default=list, blank=True)
    # A new player not dealt in yet: he posts a big blind or waits for it (§20.6).
    new_player = models.BooleanField(default=True)

    class Meta:
        ordering = ["cash_table_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["cash_table", "seat"], name="cashseat_one_player"),
            models.UniqueConstraint(fields=["player"], name="cashseat_one_seat_a_player"),
        ]


class CashList(models.Model):
    """A waiting list of a room for a game at its blinds (an interest list while no table
    deals it)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="cash_lists")
    game = models.CharField(max_length=20)
    game_limit = models.CharField(max_length=20)
    small_blind = models.PositiveIntegerField()
    big_blind = models.PositiveIntegerField()
    created_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["room_id", "big_blind", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["room", "game", "game_limit", "small_blind", "big_blind"],
                condition=models.Q(closed_at=None),
                name="cashlist_one_a_game",
            )
        ]


class CashListPlayer(models.Model):
    """A player's place on a list, kept after he leaves it (the evening's report reads the
    waits). `since` orders the list; `table_change_from` when he asks to change tables."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        SEATED = "seated", _("Seated")
        LEFT = "left", _("Left the list")
        PASSED = "passed", _("Passed over")

    class Via(models.TextChoices):
        DESK = "desk", _("Desk")
        FLOOR = "floor", _("Floor")
        SELF = "self", _("His phone")

    cash_list = models.ForeignKey(CashList, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("tourney.Player", on_delete=models.PROTECT, related_name="+")
    joined_at = models.DateTimeField()
    since = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    ended_at = models.DateTimeField(null=True, blank=True)
    via = models.CharField(max_length=10, choices=Via.choices, default=Via.DESK)
    table_change_from = models.ForeignKey(
        CashTable, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    passes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["cash_list_id", "since", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["cash_list", "player"],
                condition=models.Q(status="waiting"),
                name="cashlistplayer_once_a_list",
            )
        ]


class CashCall(models.Model):
    """A seat offered to a player of a list (§20.2): one open call a seat and a player."""

    class Status(models.TextChoices):
        OPEN = "open", _("Called")
        TAKEN = "taken", _("Seated")
        PASSED = "passed", _("Passed over")
        CANCELLED = "cancelled", _("Cancelled")

    cash_table = models.ForeignKey(CashTable, on_delete=models.CASCADE, related_name="calls")
    seat = models.PositiveSmallIntegerField()
    # the list's place he was called from; none for a must-move table's player (§20.4)
    list_player = models.ForeignKey(
        CashListPlayer, null=True, blank=True, on_delete=models.CASCADE, related_name="calls"
    )
    # where he sits now when the call moves him (a table change, a must-move table)
    from_table = models.ForeignKey(
        CashTable, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    player = models.ForeignKey("tourney.Player", on_delete=models.PROTECT, related_name="+")
    called_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    ended_at = models.DateTimeField(null=True, blank=True)
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["cash_table", "seat"],
                condition=models.Q(status="open"),
                name="cashcall_one_a_seat",
            ),
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(status="open"), name="cashcall_one_a_player"
            ),
        ]


class CashEvent(models.Model):
    """What a room's cash screens must learn (`cash_call`, `cash_seat`, `cash_list`), in
    order: its id is the stream's event id, `version` one more than the room's last."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="cash_events")
    kind = models.CharField(max_length=20)
    version = models.PositiveIntegerField()
    payload = models.JSONField(default=dict)
    at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["room", "version"], name="cashevent_version_unique")
        ]


class CashPass(models.Model):
    """The code the desk gives a cash player (§20.2): typed on the room's page at the entrance
    (its link or QR), it opens his own page, where he sees his places and joins or leaves the
    lists himself. One live code a player and room; revoking it ends his page."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="cash_passes")
    player = models.ForeignKey("tourney.Player", on_delete=models.CASCADE, related_name="+")
    code = models.CharField(max_length=8)
    created_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["room", "code"], condition=models.Q(revoked_at=None), name="cashpass_code"
            ),
            models.UniqueConstraint(
                fields=["room", "player"],
                condition=models.Q(revoked_at=None),
                name="cashpass_one_a_player",
            ),
        ]


class CashSitting(models.Model):
    """A player's time in a cash seat, kept after he stands up: the evening's report reads who
    sat down and how long the tables ran."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="+")
    cash_table = models.ForeignKey(CashTable, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey("tourney.Player", on_delete=models.PROTECT, related_name="+")
    seated_at = models.DateTimeField()
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["room", "seated_at"], name="cashsitting_room_time")]
