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
from tables.models import Room
from tables.rooms.usecases import room_create
from tourney.models import Player, Tournament
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register
from tourney.staff.usecases import staff_user_ensure
from tourney.tournaments.usecases import tournament_create

DEMO_ROOM = "Demo poker room"
DEMO_TOURNAMENT = "Rimóc championship — demo round"
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
        base = f"http://{host}:{port}"
        lines = [
            "",
            "Tourney is ready.",
            f"  Log in:    {base}{reverse('login')}   user: director   password: {password}",
            f"  Console:   {base}{reverse('tourney:console', args=[tournament.pk])}",
            f"  Desk:      {base}{reverse('tourney:desk', args=[tournament.pk])}",
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
