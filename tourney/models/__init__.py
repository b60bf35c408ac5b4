"""Staff, players, tournaments, entries, the money ledger, the audit log and the event log;
satellites' tickets in `tickets` (imported last: it points at the models here)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tourney.models.games import Game, GameLimit, game_name
from tourney.models.staff import ApiToken, StaffProfile, StaffRole  # noqa: F401 (re-exported)


class AuditEntry(models.Model):
    """Who did what, when, to what, with the state before and after. Never deleted."""

    at = models.DateTimeField(db_index=True)
    # Who did it, with no database constraint (Django still sets it to NULL when the user is
    # deleted): a constraint's check locks the user's row (FOR KEY SHARE) in every write
    # transaction of that user, a tuple lock written and logged for each registration, and a
    # multixact when two of one user's writes overlap (docs/benchmarks.md).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_constraint=False,
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
    # Club membership (Doyle 001:3): the number, and when he signed that he read the house rules.
    membership_number = models.CharField(_("membership number"), max_length=40, blank=True)
    rules_acknowledged_at = models.DateTimeField(_("house rules read"), null=True, blank=True)
    # Lower-case, accent-free "name nickname phone-digits" so "kovacs" finds "Kovács".
    search_text = models.CharField(max_length=300, db_index=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped on every change: the desk's name index (tourney.players.selectors) is rebuilt
    # when the newest of these moves.
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    # A duplicate merged into another player: kept for the history, out of every list.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged"
    )
    merged_at = models.DateTimeField(null=True, blank=True)

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
    # A ban from one championship: enforced for that season's tournaments only.
    season = models.ForeignKey(
        "Season", null=True, blank=True, on_delete=models.CASCADE, related_name="bans"
    )
    # The penalty (disqualification) that caused the ban, if any.
    penalty = models.ForeignKey(
        "Penalty", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )


class RebuyCondition(models.TextChoices):
    AT_MOST_START = "at_most_start", _("Stack at most the starting stack")
    BUSTED = "busted", _("Only when busted")


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
    starting_stack = models.PositiveBigIntegerField(_("starting stack"))
    buy_in = models.PositiveBigIntegerField(_("buy-in"))
    fee = models.PositiveBigIntegerField(_("fee"), default=0)
    currency = models.CharField(_("currency"), max_length=8, default="HUF")
    game = models.CharField(_("game"), max_length=12, choices=Game.choices, default=Game.HOLDEM)
    game_limit = models.CharField(
        _("betting"), max_length=12, choices=GameLimit.choices, default=GameLimit.NO_LIMIT
    )
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
    # Chips taken out of play without a bust-out (an absent player's stack, docs/rules.md §2.3).
    chips_removed = models.PositiveBigIntegerField(default=0)
    # When the absent-player deadline was applied (docs/rules.md §2.3, absent_policy "eliminate").
    absent_deadline_applied_at = models.DateTimeField(null=True, blank=True)
    # Hand-for-hand (docs/rules.md §11.5): on/off, and the number of the hand-for-hand hand in play.
    hand_for_hand = models.BooleanField(_("hand-for-hand"), default=False)
    h4h_hand = models.PositiveIntegerField(default=0)
    h4h_started_at = models.DateTimeField(null=True, blank=True)
    # Rebuys (docs/rules.md §2.5): allowed through the end of `rebuy_until_level` (1-based, breaks
    # not counted; empty = no rebuys), at most `rebuy_max` per entry (0 = no limit), when the entry
    # is busted (`busted`) or its stack is at most the starting stack (`at_most_start`).
    rebuy_until_level = models.PositiveIntegerField(
        _("rebuys until the end of level"), null=True, blank=True
    )
    rebuy_max = models.PositiveIntegerField(_("rebuys per entry"), default=0)
    rebuy_condition = models.CharField(
        _("rebuy allowed when"),
        max_length=16,
        choices=RebuyCondition.choices,
        default=RebuyCondition.AT_MOST_START,
    )
    rebuy_buy_in = models.PositiveBigIntegerField(_("rebuy price (prize pool)"), default=0)
    rebuy_fee = models.PositiveBigIntegerField(_("rebuy fee"), default=0)
    rebuy_chips = models.PositiveBigIntegerField(_("rebuy chips"), default=0)
    # Add-on: one per entry, through the end of the break after `addon_level` (empty = none).
    addon_level = models.PositiveIntegerField(
        _("add-on at the break after level"), null=True, blank=True
    )
    addon_buy_in = models.PositiveBigIntegerField(_("add-on price (prize pool)"), default=0)
    addon_fee = models.PositiveBigIntegerField(_("add-on fee"), default=0)
    addon_chips = models.PositiveBigIntegerField(_("add-on chips"), default=0)
    # Payouts (docs/rules.md §12): structure (empty = default), a guarantee (0 = none).
    payout_structure = models.ForeignKey(
        "PayoutStructure", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    guarantee = models.PositiveBigIntegerField(_("guaranteed prize pool"), default=0)
    # Signed change of the chips in play from color-ups (round-up increases, race rounding).
    chips_color_up = models.BigIntegerField(default=0)
    season = models.ForeignKey(
        "Season", null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    season_round = models.PositiveIntegerField(_("championship round"), null=True, blank=True)
    seats_drawn_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The version of the tournament's latest event: written only by the event's insert (the
    # database trigger of migration 0013, tourney/core/db_triggers.py); `save` never writes it.
    version = models.PositiveIntegerField(default=0)
    # The entries in play (active, seated or not), kept by the database's triggers (tourney/
    # core/db_triggers.py): registration checks the seats left without counting the field.
    playing = models.PositiveIntegerField(default=0)
    # Signed into every display link: revoking the links bumps it (clocks/display/selectors.py).
    display_link_generation = models.PositiveIntegerField(default=0)
    # Signed into every player's page link (tourney/player_page): revoking them all changes it.
    player_link_generation = models.PositiveIntegerField(default=0)
    # A flight (Day 1A ...) names its main event: Day 2, every flight's pool (rules.md §15).
    main_event = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="flights"
    )
    is_main_event = models.BooleanField(default=False)
    # A flight's day ends after this level (1-based; empty = on the director's word).
    day_end_level = models.PositiveIntegerField(
        _("the day ends after level"), null=True, blank=True
    )
    # Day 2: the chips the survivors brought, written by the Day-2 draw.
    chips_carried = models.PositiveBigIntegerField(default=0)
    # Signed into the public page's link (revoking bumps it).
    public_link_generation = models.PositiveIntegerField(default=0)
    # A bounty tournament (docs/rules.md §16): {"kind", "amount", "cash_percent"}; {} = none.
    bounty = models.JSONField(default=dict, blank=True)
    # A satellite (§17): {"target_id", "seat_value", "leftover"}; {} = none.
    satellite = models.JSONField(default=dict, blank=True)
    # A sit-and-go (§19): its series, and when it starts itself once its last seat is taken.
    sng_series = models.ForeignKey(
        "SitAndGoSeries", null=True, blank=True, on_delete=models.PROTECT, related_name="events"
    )
    auto_start_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        # One writer each for the version (an event's insert) and the count in play (the entry
        # rows' triggers). A full save of a stored tournament writes every other column.
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = _TOURNAMENT_SAVED_FIELDS
        super().save(*args, **kwargs)

    @property
    def game_name(self) -> str:
        return game_name(self.game, self.game_limit)

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
        BAGGED = "bagged", _("Bagged")

    # No index of its own on `tournament` (it leads the indexes below), `tournament_table` (reads
    # by table go through `tables.Seat`) and `created_by` (nothing reads entries by creator).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices)
    tournament_table = models.ForeignKey(
        "tables.TournamentTable",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
        db_index=False,
        # No foreign key in the database: PostgreSQL checks it for every changed row at commit,
        # 140-190 ms of the draw's 25,000 (docs/benchmarks.md). Only the services write it (a
        # table of the entry's own tournament, under its lock); PROTECT is the ORM's.
        db_constraint=False,
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Late entries whose seat lies between button and small blind sit out until it passes.
    waits_for_button = models.BooleanField(default=False)
    waiting_since = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(  # who did it: no constraint, as `AuditEntry.actor`
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    seated_at = models.DateTimeField(null=True, blank=True)
    # Set while staff have marked the seated player absent (docs/rules.md §2.3), cleared on arrival.
    absent_since = models.DateTimeField(null=True, blank=True)
    # The level begun when he was marked absent (0: before the start): his wait runs from it.
    absent_level = models.PositiveIntegerField(null=True, blank=True)
    # Marked absent when the money was reached: no prize where the house says so (§2.3).
    absent_at_money = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)
    # Disqualified (docs/rules.md §10.4): out of the tournament, no prize when the house says so.
    disqualified_at = models.DateTimeField(null=True, blank=True)
    # Signed into the entry's player page link: revoking it changes it (reissue: a new QR code).
    player_link_generation = models.PositiveIntegerField(default=0)
    # The stack last counted (docs/rules.md §15.4); a flight's bag at the end of the day.
    chips = models.PositiveBigIntegerField(null=True, blank=True)
    chips_at = models.DateTimeField(null=True, blank=True)
    # A Day-2 entry: the flight entry whose bag it plays (no constraint in the database: its
    # check locked each bag's row, 60 ms of the Day-2 draw's 290, docs/benchmarks.md).
    day1_entry = models.OneToOneField(
        "self", models.PROTECT, null=True, related_name="day2_entry", db_constraint=False
    )

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status__in=["waiting", "active"]),
                name="one_live_entry_per_player",
            ),
        ]
        # No index holds the table or the seat: the draw's 25,000 new row versions stay in their
        # pages (fillfactor 45, migration 0017) with no index written; `tables.Seat` has them.
        indexes = [models.Index(fields=["tournament", "status"], name="entry_tournament_status")]


class Elimination(models.Model):
    """One entry busted (docs/rules.md §11): its finishing place range and the hand it busted in.

    Entries busted in the same hand share a `bust_group` (under hand-for-hand: every bust of
    that hand-for-hand hand, at any table). `place`..`place_to` is the range of places the
    entry shares (equal when not tied). An undo sets `undone_at`; rows are never deleted.
    """

    class Reason(models.TextChoices):
        BUST = "bust", _("Busted")
        ABSENT = "absent", _("Absent at the deadline")
        DISQUALIFIED = "disqualified", _("Disqualified")

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
    # Who won the pot that busted him (entry ids, docs/rules.md §16.2): the bounty's winners.
    busted_by = models.JSONField(default=list, blank=True)
    # A mystery bounty (§16.5): in its phase, and the envelope its winners drew (an index).
    bounty_phase = models.BooleanField(default=False)
    envelope = models.PositiveIntegerField(null=True, blank=True)

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
        PAYOUT = "payout", _("Prize paid")

    class Purpose(models.TextChoices):
        ENTRY = "entry", _("Entry")
        REBUY = "rebuy", _("Rebuy")
        ADDON = "addon", _("Add-on")
        PRIZE = "prize", _("Prize")
        BOUNTY = "bounty", _("Bounty")  # bounties won, paid with the prize (docs/rules.md §16)

    class Method(models.TextChoices):
        CASH = "cash", _("Cash")
        CARD = "card", _("Card")
        OTHER = "other", _("Other")
        TICKET = "ticket", _("Ticket")  # a seat won in a satellite: no money at the cage

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="ledger")
    entry = models.ForeignKey(Entry, null=True, on_delete=models.PROTECT, related_name="ledger")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # What the money was for: `buy_in` rows of every purpose but `prize` feed the prize pool.
    purpose = models.CharField(max_length=8, choices=Purpose.choices, default=Purpose.ENTRY)
    purchase = models.ForeignKey(
        "ChipPurchase", null=True, blank=True, on_delete=models.PROTECT, related_name="ledger"
    )
    amount = models.BigIntegerField()
    method = models.CharField(max_length=8, choices=Method.choices, default=Method.CASH)
    cashier = models.ForeignKey(  # who did it: no constraint, as `AuditEntry.actor`
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_constraint=False,
    )
    at = models.DateTimeField()
    receipt_number = models.CharField(max_length=30, db_index=True)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["tournament", "kind"])]


_TOURNAMENT_SAVED_FIELDS = [
    f.name
    for f in Tournament._meta.concrete_fields
    if not f.primary_key and f.name not in ("version", "playing")
]


class TournamentEvent(models.Model):
    """Append-only log of what screens must learn; its id is the SSE event id. Each event has a
    version of its own in its tournament, one more than the one before."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=30)
    version = models.PositiveIntegerField()
    payload = models.JSONField(default=dict)
    at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["tournament", "id"])]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "version"], name="tournamentevent_version_unique"
            )
        ]


class ChipPurchase(models.Model):
    """A rebuy or add-on bought by an entry (docs/rules.md §2.5, §2.6): chips into play, money to
    the ledger.

    A mistaken one is undone (`undone_at`) with refund rows in the ledger; never deleted.
    """

    class Kind(models.TextChoices):
        REBUY = "rebuy", _("Rebuy")
        ADDON = "addon", _("Add-on")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="chip_purchases"
    )
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="chip_purchases")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    chips = models.PositiveBigIntegerField()
    buy_in = models.PositiveBigIntegerField()
    fee = models.PositiveBigIntegerField()
    # The period (clocks) in play when bought, and the stack the player declared (may be empty).
    period_index = models.PositiveIntegerField(null=True, blank=True)
    stack_before = models.PositiveBigIntegerField(null=True, blank=True)
    # The bust-out a rebuy took back (docs/rules.md §2.5: declared before the next hand); undoing
    # the rebuy busts the entry again.
    revives = models.ForeignKey(
        Elimination, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
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
        indexes = [models.Index(fields=["tournament", "kind"])]


class PayoutStructure(models.Model):
    """Payout share tables by number of entries (tourney.domain.payouts.PayoutStructure).

    `brackets` = [{"min_entries": int, "max_entries": int | null, "shares": [millionths]}];
    templates (`template_key` set) are read-only and duplicated to edit.
    """

    name = models.CharField(_("name"), max_length=120)
    template_key = models.CharField(max_length=40, blank=True, db_index=True)
    brackets = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Deal(models.Model):
    """A deal the remaining players agreed (chip chop, ICM or by hand) for the places left.

    `shares` = [{"entry_id", "stack", "amount"}]; the amounts replace the payouts of the
    places those players finish in, and sum to what those places would have paid (less
    `left_to_play`, an amount kept back and played for).
    """

    class Method(models.TextChoices):
        ICM = "icm", _("ICM")
        CHIP_CHOP = "chip_chop", _("Chip chop")
        CUSTOM = "custom", _("Agreed amounts")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="deals")
    method = models.CharField(max_length=10, choices=Method.choices)
    shares = models.JSONField(default=list)
    left_to_play = models.PositiveBigIntegerField(default=0)
    at = models.DateTimeField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "id"]


class Penalty(models.Model):
    """A sanction given to an entry (docs/rules.md §10); a player's history spans tournaments.
    Missed hands start at the end of the hand in play (`table_hands_at_start`: the table's
    `hands_played` then); hands left come from hand reports, or a time estimate."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("Warning")
        MISSED_HANDS = "missed_hands", _("Missed hands")
        MISSED_ROUNDS = "missed_rounds", _("Missed rounds")
        DISQUALIFICATION = "disqualification", _("Disqualification")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    reason = models.CharField(_("reason"), max_length=300)
    rounds = models.PositiveIntegerField(null=True, blank=True)
    players_at_table = models.PositiveIntegerField(null=True, blank=True)
    hands = models.PositiveIntegerField(default=0)
    table_number = models.PositiveIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    tournament_table = models.ForeignKey(
        "tables.TournamentTable", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    table_hands_at_start = models.PositiveIntegerField(null=True, blank=True)
    # Hands already served at tables the player left (penalty_follows_moves).
    hands_served_before = models.PositiveIntegerField(default=0)
    chips_removed = models.PositiveBigIntegerField(default=0)
    given_at = models.DateTimeField()
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    served_at = models.DateTimeField(null=True, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-given_at", "-id"]
        indexes = [models.Index(fields=["tournament", "kind"])]


# Registered with the app's models; they point at the models above.
from tourney.models.cancellations import Cancellation  # noqa: E402, F401
from tourney.models.seasons import Season  # noqa: E402, F401
from tourney.models.sit_and_go import SitAndGoSeries  # noqa: E402, F401
from tourney.models.tickets import Ticket  # noqa: E402, F401
