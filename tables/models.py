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
