"""What the API's modules share: the router of players, tournaments and entries (tourney/api.py
and tourney/setup/api.py add routes to it), and the answers' shapes of those objects."""

from datetime import UTC, datetime

from django.utils.translation import gettext as _
from ninja import Router

from tourney.core.errors import InvalidInput
from tourney.domain.house_rules import describe
from tourney.domain.purchases import MONEY_FIELDS
from tourney.models import Entry, Player, Tournament
from tourney.selectors import player_active_ban, tournament_rules, tournament_summary
from tourney.setup.usecases import settings_token, setup_values

router = Router(tags=["tournaments"])


def ms(dt: datetime | None) -> int | None:
    return int(dt.timestamp() * 1000) if dt else None


def ms_datetime(value: int | None) -> datetime | None:
    """An epoch-milliseconds instant from a request; a value no calendar holds is refused."""
    if value is None:
        return None
    try:
        return datetime.fromtimestamp(value / 1000, tz=UTC)
    except (OverflowError, ValueError, OSError) as exc:
        raise InvalidInput("invalid_time", _("%(ms)s is not a time.") % {"ms": value}) from exc


def player_out(player: Player, contact: bool = True) -> dict:
    """`contact`: with e-mail and phone (empty otherwise: the display role, the floor)."""
    ban = player_active_ban(player)
    return {
        "id": player.pk,
        "name": player.name,
        "nickname": player.nickname,
        "email": player.email if contact else "",
        "phone": player.phone if contact else "",
        "banned": ban is not None,
        "ban_reason": ban.reason if ban else None,
    }


def duplicates_out(duplicates) -> list[dict]:
    return [
        {"id": d.player.pk, "name": d.player.name, "reasons": list(d.reasons)} for d in duplicates
    ]


def tournament_out(tournament: Tournament) -> dict:
    summary = tournament_summary(tournament)
    setup = setup_values(tournament)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "entries": summary.entries,
        "players_remaining": summary.players_remaining,
        "waiting": summary.waiting,
        "prize_pool": summary.prize_pool,
        "total_chips": summary.total_chips,
        "average_stack": summary.average_stack,
        "capacity": summary.capacity,
        "starting_stack": tournament.starting_stack,
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "currency": tournament.currency,
        "room_id": tournament.room_id,
        "structure_id": tournament.structure_id,
        "house_rules": tournament.house_rules,
        "rules": describe(tournament_rules(tournament)),
        "seats_drawn": tournament.seats_drawn_at is not None,
        "version": tournament.version,
        "late_registration_level": tournament.late_registration_level,
        "display_message": tournament.display_message,
        "hand_for_hand": tournament.hand_for_hand,
        "h4h_hand": tournament.h4h_hand if tournament.hand_for_hand else None,
        "payout_structure_id": tournament.payout_structure_id,
        "season_id": tournament.season_id,
        "season_round": tournament.season_round,
        "rebuys": summary.rebuys,
        "addons": summary.addons,
        "prize_money": summary.prize_money,
        "overlay": summary.overlay,
        **{field: getattr(tournament, field) for field in MONEY_FIELDS},
        "scheduled_start_ms": ms(tournament.scheduled_start),
        "max_entries": tournament.max_entries,
        "waiting_list": tournament.waiting_list_enabled,
        "rules_overrides": tournament.rules_overrides,
        "table_numbers": setup["table_numbers"],
        "settings_token": settings_token(tournament, setup),
    }


def entry_out(entry: Entry) -> dict:
    return {
        "id": entry.pk,
        "player_id": entry.player_id,
        "player_name": entry.player.name,
        "number": entry.number,
        "status": entry.status,
        "table": entry.tournament_table.number if entry.tournament_table_id else None,
        "seat": entry.seat,
        "waits_for_button": entry.waits_for_button,
        "absent": entry.absent_since is not None,
    }
