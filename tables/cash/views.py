"""The cash floor's pages (docs/rules.md §20): the floor's page of a room (calls, tables,
lists, a player found and put on a list, a table opened), its actions, and the lobby TV's page
of the games and lists (by the room's board link). Each page reloads itself when the room's
cash events move (`version`)."""

from django import forms
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clocks.festival.selectors import board_room_id, board_token
from infra.text.qr import qr_svg
from infra.web.schema_types import whole_number
from tables.cash.selectors import cash_floor, cash_version
from tables.cash.usecases import (
    cash_list_create,
    cash_list_join,
    cash_list_leave,
    cash_rules_set,
    cash_table_close,
    cash_table_from_list,
    cash_table_open,
)
from tables.cash_players.usecases import cash_pass_give
from tables.cash_seats.usecases import (
    cash_call_pass,
    cash_call_take,
    cash_seat_away,
    cash_seat_call,
    cash_seat_leave,
)
from tables.domain.cash import CASH_PROFILES
from tables.models import CashPass, Room
from tourney.core import roles
from tourney.models.games import Game, GameLimit
from tourney.players.selectors import player_search
from tourney.players.usecases import player_create
from tourney.system.pages import role_required, run_service

BIG = 10**9
# A TV page's copy lives this long after its version (a newer version is another key).
TV_COPY_SECONDS = 120


class TableOpenForm(forms.Form):
    table = forms.IntegerField(min_value=1, max_value=10_000)
    game = forms.ChoiceField(choices=Game.choices)
    game_limit = forms.ChoiceField(choices=GameLimit.choices)
    small_blind = forms.IntegerField(min_value=1, max_value=BIG)
    big_blind = forms.IntegerField(min_value=1, max_value=BIG)
    min_buy_in = forms.IntegerField(min_value=1, max_value=BIG)
    max_buy_in = forms.IntegerField(min_value=1, max_value=BIG)
    straddle = forms.BooleanField(required=False)


@role_required("read")
def floor(request, room_id: int):
    room = get_object_or_404(Room, pk=room_id)
    query = " ".join(request.GET.get("q", "").split())[:120]
    state = cash_floor(room, timezone.now())
    code_id = whole_number(request.GET.get("code"), least=1)
    given = (
        CashPass.objects.filter(pk=code_id, room=room, revoked_at=None)
        .select_related("player")
        .first()
        if code_id
        else None
    )
    entrance = request.build_absolute_uri(reverse("tables:cash_entrance", args=[board_token(room)]))
    return render(
        request,
        "tables/cash/floor.html",
        {
            "room": room,
            "state": state,
            "query": query,
            "found": player_search(query, limit=6) if query else [],
            "can_floor": roles.can(request.user, "floor"),
            "can_desk": roles.can(request.user, "desk"),
            "can_direct": roles.can(request.user, "director"),
            "profiles": list(CASH_PROFILES),
            "house_rules": room.cash_house_rules,
            "tv_url": reverse("tables:cash_tv", args=[board_token(room)]),
            "entrance_url": entrance,
            "given": given,
            "entrance_qr": mark_safe(qr_svg(entrance)),  # segno's own markup, no user text
            "games": Game.choices,
            "limits": GameLimit.choices,
            "config": {
                "version_url": reverse("tables:cash_version", args=[room.pk]),
                "version": state["version"],
            },
        },
    )


@role_required("read")
@never_cache
def version(request, room_id: int):
    return JsonResponse({"version": cash_version(room_id)})


def _number(request, name: str) -> int | None:
    return whole_number(request.POST.get(name), least=1)


def _act(request, room: Room):
    """The action the form names, as its use case; None when a field is missing or wrong."""
    action, user = request.POST.get("action", ""), request.user
    table, seat, call = (
        _number(request, "cash_table"),
        _number(request, "seat"),
        _number(request, "call"),
    )
    cash_list, player = _number(request, "cash_list"), _number(request, "player")
    floor_actions = {
        "call": (table and seat)
        and (lambda: cash_seat_call(actor=user, cash_table_id=table, seat=seat)),
        "take": call and (lambda: cash_call_take(actor=user, call_id=call)),
        "pass": call and (lambda: cash_call_pass(actor=user, call_id=call)),
        "leave": (table and seat)
        and (lambda: cash_seat_leave(actor=user, cash_table_id=table, seat=seat)),
        "away": (table and seat)
        and (lambda: cash_seat_away(actor=user, cash_table_id=table, seat=seat, away=True)),
        "back": (table and seat)
        and (lambda: cash_seat_away(actor=user, cash_table_id=table, seat=seat, away=False)),
        "close": table and (lambda: cash_table_close(actor=user, cash_table_id=table)),
        "from_list": cash_list
        and _number(request, "table")
        and (
            lambda: cash_table_from_list(
                actor=user,
                cash_list_id=cash_list,
                table_number=_number(request, "table"),
                min_buy_in=_number(request, "min_buy_in") or 0,
                max_buy_in=_number(request, "max_buy_in") or 0,
            )
        ),
    }
    desk_actions = {
        "join": cash_list and (lambda: _join(request, cash_list, player)),
        "unlist": (cash_list and player)
        and (lambda: cash_list_leave(actor=user, cash_list_id=cash_list, player_id=player)),
    }
    if action in floor_actions and roles.can(user, "floor"):
        return floor_actions[action]
    if action in desk_actions and roles.can(user, "desk"):
        return desk_actions[action]
    return None


def _join(request, cash_list: int, player: int | None):
    if player is None:
        name = " ".join(request.POST.get("name", "").split())[:120]
        player = player_create(actor=request.user, name=name).pk
    return cash_list_join(actor=request.user, cash_list_id=cash_list, player_id=player, via="desk")


@role_required("desk")
@require_POST
def act(request, room_id: int):
    """One of the floor page's buttons (PRG: back to the page)."""
    room = get_object_or_404(Room, pk=room_id)
    back = reverse("tables:cash_floor", args=[room.pk])
    player = _number(request, "player")
    if request.POST.get("action") == "code" and player:
        given = run_service(
            request, lambda: cash_pass_give(actor=request.user, room_id=room.pk, player_id=player)
        )
        return redirect(f"{back}?code={given.pk}" if given else back)
    action = _act(request, room)
    if not action:
        messages.error(request, _("This cannot be done from here."))
    else:
        run_service(request, action)
    return redirect(reverse("tables:cash_floor", args=[room.pk]))


@role_required("floor")
@require_POST
def open_table(request, room_id: int):
    room = get_object_or_404(Room, pk=room_id)
    form = TableOpenForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Fill in the table, the game, the blinds and the buy-ins."))
    else:
        d = form.cleaned_data
        run_service(
            request,
            lambda: cash_table_open(
                actor=request.user,
                room_id=room.pk,
                table_number=d["table"],
                game=d["game"],
                game_limit=d["game_limit"],
                small_blind=d["small_blind"],
                big_blind=d["big_blind"],
                min_buy_in=d["min_buy_in"],
                max_buy_in=d["max_buy_in"],
                straddle=d["straddle"],
            ),
        )
    return redirect(reverse("tables:cash_floor", args=[room.pk]))


@role_required("desk")
@require_POST
def new_list(request, room_id: int):
    room = get_object_or_404(Room, pk=room_id)
    form = TableOpenForm({**request.POST.dict(), "table": 1, "min_buy_in": 1, "max_buy_in": 1})
    if not form.is_valid():
        messages.error(request, _("Fill in the game and the blinds."))
    else:
        d = form.cleaned_data
        run_service(
            request,
            lambda: cash_list_create(
                actor=request.user,
                room_id=room.pk,
                game=d["game"],
                game_limit=d["game_limit"],
                small_blind=d["small_blind"],
                big_blind=d["big_blind"],
            ),
        )
    return redirect(reverse("tables:cash_floor", args=[room.pk]))


@never_cache
def tv(request, token: str):
    """The lobby TV's page of the room's cash games (its board link: no login). The screens
    reload it together when the room's cash events move: rendered once a version and language
    (each process's cache), the rest of the room's screens are answered from that copy."""
    room_id = board_room_id(token)
    if room_id is None:
        raise Http404
    key = f"cash-tv:{room_id}:{cash_version(room_id)}:{get_language()}"
    body = cache.get(key)
    if body is None:
        room = Room.objects.get(pk=room_id)
        state = cash_floor(room, timezone.now())
        context = {
            "room": room,
            "state": state,
            "config": {
                "version_url": reverse("tables:cash_tv_version", args=[token]),
                "version": state["version"],
            },
        }
        body = render_to_string("tables/cash/tv.html", context, request)
        cache.set(key, body, TV_COPY_SECONDS)
    return HttpResponse(body)


@never_cache
def tv_version(request, token: str):
    room_id = board_room_id(token)
    if room_id is None:
        raise Http404
    return JsonResponse({"version": cash_version(room_id)})


class CashRulesForm(forms.Form):
    house_rules = forms.ChoiceField(choices=[(k, k) for k in CASH_PROFILES])
    call_minutes = forms.IntegerField(min_value=1, max_value=60)
    passed_to = forms.ChoiceField(choices=[("end", "end"), ("off", "off")])
    seated_leaves_lists = forms.BooleanField(required=False)
    table_change = forms.ChoiceField(choices=[("before_list", "before"), ("after_list", "after")])
    away_minutes = forms.IntegerField(min_value=1, max_value=180)
    open_table_at = forms.IntegerField(min_value=2, max_value=10)
    clock_after_seconds = forms.IntegerField(min_value=0, max_value=600)
    clock_seconds = forms.IntegerField(min_value=10, max_value=300)


@role_required("director")
@require_POST
def rules(request, room_id: int):
    """The room's cash house rules from the floor page's form: the values that differ from
    the profile's are kept as its changes."""
    room = get_object_or_404(Room, pk=room_id)
    form = CashRulesForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Fill in every house rule within its bounds."))
    else:
        data = dict(form.cleaned_data)
        profile = CASH_PROFILES[data.pop("house_rules")]
        changed = {k: v for k, v in data.items() if getattr(profile, k) != v}
        run_service(
            request,
            lambda: cash_rules_set(
                actor=request.user,
                room_id=room.pk,
                house_rules=form.cleaned_data["house_rules"],
                rules=changed,
            ),
            success=_("The cash games' house rules are saved."),
        )
    return redirect(reverse("tables:cash_floor", args=[room.pk]))
