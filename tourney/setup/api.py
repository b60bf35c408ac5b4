"""Route of a tournament's settings edit: `PATCH /api/v1/tournaments/{id}` (director).

On the root API's router: the path is that of `GET /tournaments/{id}` (one view per path)."""

from infra.web.schema_types import Id
from tourney.core import roles
from tourney.setup.schemas import TournamentPatch
from tourney.setup.usecases import tournament_update
from tourney.system.schemas import ERROR_RESPONSES, TournamentOut, ms_datetime, tournament_out
from tourney.tournaments.api import router

# A 0 in these fields means "none" (JSON null already means "unchanged").
# (`late_registration_level: 0` is the start: registration closes when the clock starts.)
ZERO_IS_NONE = ("max_entries", "rebuy_until_level", "addon_level")


def patch_changes(payload: TournamentPatch) -> dict:
    """The settings an edit names, as the service takes them."""
    sent = payload.dict(exclude_unset=True)
    sent.pop("settings_token", None)
    changes = {key: value for key, value in sent.items() if value is not None or key == "rules"}
    for key in ZERO_IS_NONE:
        if changes.get(key) == 0:
            changes[key] = None
    if "payout_structure_id" in changes and not changes["payout_structure_id"]:
        changes["payout_structure_id"] = None
    if "game" in changes:
        game = changes.pop("game")
        changes["game"], changes["game_limit"] = game["kind"], game["limit"]
    if "waiting_list" in changes:
        changes["waiting_list_enabled"] = changes.pop("waiting_list")
    if changes.pop("clear_late_registration", False):
        changes["late_registration_level"] = None
    if changes.pop("clear_scheduled_start", False):
        changes["scheduled_start"] = None
    if "scheduled_start_ms" in changes:
        changes["scheduled_start"] = ms_datetime(changes.pop("scheduled_start_ms"))
    return changes


@router.patch("/tournaments/{tournament_id}", response={200: TournamentOut, **ERROR_RESPONSES})
def update_tournament(request, tournament_id: Id, payload: TournamentPatch):
    """Edit a tournament's settings (name, start, entry cap, structure, prices, tables, house
    rules...): each while the state of play allows it, audited, refused as a whole."""
    roles.require(request.auth, "director")
    tournament = tournament_update(
        actor=request.auth,
        tournament_id=tournament_id,
        changes=patch_changes(payload),
        expected_token=payload.settings_token,
    )
    return tournament_out(tournament)
