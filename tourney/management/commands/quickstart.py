"""Set up a demo room and tournament, print the login and URLs, and serve on 127.0.0.1:8000."""

import os
import secrets
import threading

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection
from django.urls import reverse

from clocks.display.selectors import display_token
from clocks.models import Structure
from clocks.structures.usecases import structure_duplicate
from infra.secret_key import key_file
from tables.cash.usecases import cash_list_join, cash_table_open
from tables.cash_seats.usecases import cash_seat_direct
from tables.models import CashList, CashTable, Room
from tables.rooms.usecases import room_create
from tourney.models import Player, Tournament
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register
from tourney.staff.usecases import staff_user_ensure
from tourney.tournaments.usecases import tournament_create

DEMO_ROOM = "Demo poker room"
DEMO_TOURNAMENT = "Rimóc championship — demo round"
DEMO_CASH = ["Lakatos Márk", "Oláh Nóra", "Pintér Olivér", "Rácz Panna", "Sárközi Rezső"]
DEMO_PLAYERS = [
    "Kovács Ádám", "Nagy Béla", "Szabó Csilla", "Tóth Dániel", "Horváth Eszter",
    "Varga Ferenc", "Kiss Gábor", "Molnár Hajnalka", "Németh István", "Farkas Judit",
    "Balogh Kata", "Papp László",
]  # fmt: skip


class Command(BaseCommand):
    help = "Migrate, create a demo room, tournament and director login, then serve."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-serve", action="store_true", help="set up and print only")

    def handle(self, *args, host: str, port: int, no_serve: bool, **options):
        call_command("migrate", interactive=False, verbosity=0)
        password = secrets.token_urlsafe(9)
        director = staff_user_ensure(
            actor=None, username="director", role="director", password=password
        )
        get_user_model().objects.filter(pk=director.pk).update(is_staff=True, is_superuser=True)
        room = Room.objects.filter(name=DEMO_ROOM).first() or room_create(
            actor=director,
            name=DEMO_ROOM,
            tables=[{"number": n, "seats": 10} for n in range(1, 9)],
        )
        tournament = Tournament.objects.filter(name=DEMO_TOURNAMENT).first()
        if tournament is None:
            # A copy of the read-only template, so the demo's structure can be edited.
            structure = structure_duplicate(
                actor=director,
                structure_id=Structure.objects.get(template_key="rimoc-championship").pk,
            )
            tournament = tournament_create(
                actor=director,
                name=DEMO_TOURNAMENT,
                structure_id=structure.pk,
                late_registration_level=6,
                starting_stack=40_000,
                buy_in=10_000,
                fee=2_000,
                room_id=room.pk,
                house_rules="rimoc",
            )
            for name in DEMO_PLAYERS:
                player = Player.objects.filter(name=name).first() or player_create(
                    actor=director, name=name
                )
                entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
        if not CashTable.objects.filter(room=room).exists():
            self._cash_demo(director, room)
        base = f"http://{host}:{port}"
        lines = [
            "",
            "Tourney is ready.",
            f"  Log in:    {base}{reverse('login')}   user: director   password: {password}",
            f"  Console:   {base}{reverse('tourney:console', args=[tournament.pk])}",
            f"  Desk:      {base}{reverse('tourney:desk', args=[tournament.pk])}",
            f"  Cash:      {base}{reverse('tables:cash_floor', args=[room.pk])}",
            f"  Display:   {base}{reverse('clocks:display', args=[display_token(tournament.pk)])}",
            f"  API docs:  {base}/api/v1/docs",
            f"  Manual:    {base}/manual/",
            "",
        ]
        if connection.vendor == "sqlite" and settings.TOURNEY_AUTO_BACKUP:
            lines.insert(
                -1,
                f"  Backups:   {settings.TOURNEY_BACKUP_DIR} (every level and 15 minutes of play)",
            )
        if not os.environ.get("DJANGO_SECRET_KEY"):
            lines.insert(
                -1, f"  Secret key: {key_file(settings.BASE_DIR)} (made once; keep it private)"
            )
        self.stdout.write("\n".join(lines))
        if no_serve:
            self._build_manual()
            return
        # The manual is built beside the server, which answers at once (/manual/ says it is
        # not built yet for the few seconds the build takes).
        threading.Thread(target=self._build_manual, name="manual", daemon=True).start()
        import uvicorn

        from clocks.clock.tasks import start_clock_thread
        from tourney.backups.tasks import start_backup_thread

        if not settings.REDIS_URL:
            start_clock_thread()  # no Celery beat without Redis: advance clocks in-process
        if connection.vendor == "sqlite" and settings.TOURNEY_AUTO_BACKUP:
            start_backup_thread()  # the embedded default backs itself up (docs/backups.md)
        uvicorn.run("tourney.asgi:application", host=host, port=port, log_level="warning")

    def _cash_demo(self, director, room) -> None:
        """Two cash tables of No-limit Hold'em 100/200 (7 and 8), a player at each, three on
        the list (docs/tasks/cash-games.md)."""
        players = [
            Player.objects.filter(name=n).first() or player_create(actor=director, name=n)
            for n in DEMO_CASH
        ]
        tables = [
            cash_table_open(
                actor=director, room_id=room.pk, table_number=n, game="holdem",
                game_limit="no_limit", small_blind=100, big_blind=200, min_buy_in=10_000,
                max_buy_in=40_000,
            )
            for n in (7, 8)
        ]  # fmt: skip
        cash_seat_direct(
            actor=director, cash_table_id=tables[0].pk, seat=1, player_id=players[0].pk
        )
        cash_seat_direct(
            actor=director, cash_table_id=tables[1].pk, seat=1, player_id=players[1].pk
        )
        cash_list = CashList.objects.get(room=room, closed_at=None)
        for player in players[2:]:
            cash_list_join(actor=director, cash_list_id=cash_list.pk, player_id=player.pk)

    def _build_manual(self) -> None:
        """The manual at /manual/, built again only when docs/ changed since (a few seconds)."""
        from tourney.management.commands.manual import build_manual, manual_is_stale

        target = settings.TOURNEY_MANUAL_DIR
        if not manual_is_stale(target):
            return
        try:
            build_manual(target)
        except Exception as error:  # the room's evening does not depend on its manual
            self.stderr.write(f"The manual was not built ({error}); /manual/ says how to.")
