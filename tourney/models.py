"""Staff, players, tournaments, entries, the money ledger, the audit log and the event log."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class StaffRole(models.TextChoices):
    DIRECTOR = "director", _("Director")
    FLOOR = "floor", _("Floor")
    DESK = "desk", _("Desk")
    DISPLAY = "display", _("Display")


class StaffProfile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff"
    )
    role = models.CharField(_("role"), max_length=10, choices=StaffRole.choices)
    language = models.CharField(_("language"), max_length=8, blank=True)

    def __str__(self) -> str:
        return f"{self.user} ({self.role})"


class ApiToken(models.Model):
    """A bearer token for scripts; only its SHA-256 is stored."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    name = models.CharField(max_length=80, blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)


class AuditEntry(models.Model):
    """Who did what, when, to what, with the state before and after. Never deleted."""

    at = models.DateTimeField(db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_name = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=60, db_index=True)
    tournament = models.ForeignKey(
        "Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="audit_entries"
    )
    target_type = models.CharField(max_length=40, blank=True)
    target_id = models.BigIntegerField(null=True, blank=True)
    summary = models.CharField(max_length=300)  # in English, for search and export
    summary_template = models.CharField(max_length=300, blank=True)
    summary_params = models.JSONField(default=dict, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def display_summary(self) -> str:
        """The summary in the reader's language (the log stays one language for everyone)."""
        if not self.summary_template:
            return self.summary
        try:
            return gettext(self.summary_template) % self.summary_params
        except (KeyError, TypeError, ValueError):
            return self.summary


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    # Lower-case, accent-free "name nickname phone-digits" so "kovacs" finds "Kovács".
    search_text = models.CharField(max_length=300, db_index=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class PlayerBan(models.Model):
    """A ban the desk enforces: until `ends_at`, or indefinitely when it is empty."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="bans")
    reason = models.CharField(_("reason"), max_length=300)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    lifted_at = models.DateTimeField(null=True, blank=True)


class Tournament(models.Model):
    class Status(models.TextChoices):
        REGISTERING = "registering", _("Registering")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=160)
    room = models.ForeignKey("tables.Room", on_delete=models.PROTECT, related_name="tournaments")
    structure = models.ForeignKey(
        "clocks.Structure", on_delete=models.PROTECT, related_name="tournaments"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERING)
    starting_stack = models.PositiveIntegerField(_("starting stack"))
    buy_in = models.PositiveIntegerField(_("buy-in"))
    fee = models.PositiveIntegerField(_("fee"), default=0)
    currency = models.CharField(_("currency"), max_length=8, default="HUF")
    house_rules = models.CharField(_("house rules"), max_length=20, default="tda2024")
    rules_overrides = models.JSONField(default=dict, blank=True)
    waiting_list_enabled = models.BooleanField(_("waiting list"), default=True)
    max_entries = models.PositiveIntegerField(_("maximum entries"), null=True, blank=True)
    scheduled_start = models.DateTimeField(_("scheduled start"), null=True, blank=True)
    # Late registration is open through the end of this blind level (1-based, breaks not
    # counted); empty = no clock deadline (tourney.domain.registration).
    late_registration_level = models.PositiveIntegerField(
        _("late registration until the end of level"), null=True, blank=True
    )
    # The director's message scrolled on the lobby screens.
    display_message = models.TextField(_("message for the screens"), blank=True, default="")
    # Chips taken out of play without a bust-out (e.g. an absent player's stack, RULES.md 2).
    chips_removed = models.PositiveBigIntegerField(default=0)
    # When the absent-player deadline was applied (RULES.md 2, absent_policy "eliminate").
    absent_deadline_applied_at = models.DateTimeField(null=True, blank=True)
    # Hand-for-hand (RULES.md 11): on/off, and the number of the hand-for-hand hand in play.
    hand_for_hand = models.BooleanField(_("hand-for-hand"), default=False)
    h4h_hand = models.PositiveIntegerField(default=0)
    h4h_started_at = models.DateTimeField(null=True, blank=True)
    seats_drawn_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped on every write that changes what screens show; lets clients detect staleness.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def entry_price(self) -> int:
        return self.buy_in + self.fee


class Entry(models.Model):
    """One buy-in of a player into a tournament (a re-entry is a new Entry)."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting list")
        ACTIVE = "active", _("Playing")
        ELIMINATED = "eliminated", _("Eliminated")
        UNREGISTERED = "unregistered", _("Unregistered")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices)
    tournament_table = models.ForeignKey(
        "tables.TournamentTable",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Late entries whose seat lies between button and small blind sit out until it passes.
    waits_for_button = models.BooleanField(default=False)
    waiting_since = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    seated_at = models.DateTimeField(null=True, blank=True)
    # Set while staff have marked the seated player absent (RULES.md 2), cleared on arrival.
    absent_since = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status__in=["waiting", "active"]),
                name="one_live_entry_per_player",
            ),
            models.UniqueConstraint(
                fields=["tournament_table", "seat"],
                condition=Q(status="active") & Q(seat__isnull=False),
                name="one_player_per_seat",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"])]


class Elimination(models.Model):
    """One entry busted (RULES.md 11): its finishing place range and the hand it busted in.

    Entries busted in the same hand share a `bust_group` (under hand-for-hand: every bust of
    that hand-for-hand hand, at any table). `place`..`place_to` is the range of places the
    entry shares (equal when not tied). An undo sets `undone_at`; rows are never deleted.
    """

    class Reason(models.TextChoices):
        BUST = "bust", _("Busted")
        ABSENT = "absent", _("Absent at the deadline")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="eliminations"
    )
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="eliminations")
    bust_group = models.PositiveIntegerField()
    reason = models.CharField(max_length=12, choices=Reason.choices, default=Reason.BUST)
    hand_start_stack = models.PositiveBigIntegerField(null=True, blank=True)
    place = models.PositiveIntegerField()
    place_to = models.PositiveIntegerField()
    table_number = models.PositiveIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    h4h_hand = models.PositiveIntegerField(null=True, blank=True)
    at = models.DateTimeField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament_id", "id"]
        indexes = [models.Index(fields=["tournament", "bust_group"])]
        constraints = [
            models.UniqueConstraint(
                fields=["entry"],
                condition=Q(undone_at__isnull=True),
                name="one_standing_elimination_per_entry",
            ),
        ]


class LedgerEntry(models.Model):
    """A money movement at the cage. Positive = paid in by the player; never edited."""

    class Kind(models.TextChoices):
        BUY_IN = "buy_in", _("Buy-in")
        FEE = "fee", _("Fee")
        REFUND_BUY_IN = "refund_buy_in", _("Buy-in refund")
        REFUND_FEE = "refund_fee", _("Fee refund")

    class Method(models.TextChoices):
        CASH = "cash", _("Cash")
        CARD = "card", _("Card")
        OTHER = "other", _("Other")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="ledger")
    entry = models.ForeignKey(Entry, null=True, on_delete=models.PROTECT, related_name="ledger")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    amount = models.IntegerField()
    method = models.CharField(max_length=8, choices=Method.choices, default=Method.CASH)
    cashier = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField()
    receipt_number = models.CharField(max_length=30, db_index=True)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["tournament", "kind"])]


class TournamentEvent(models.Model):
    """Append-only log of what screens must learn; its id is the SSE event id."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=30)
    version = models.PositiveIntegerField()
    payload = models.JSONField(default=dict)
    at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["tournament", "id"])]
