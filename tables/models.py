"""Rooms, their physical tables and seats, and the tables a tournament plays on."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Room(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

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
    button_draw = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["tournament_id", "open_order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "table"], name="tournament_table_once"),
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournament_table_number"
            ),
        ]

    def __str__(self) -> str:
        return f"T{self.number}"


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

    class Meta:
        ordering = ["tournament_table_id", "hand_number"]
