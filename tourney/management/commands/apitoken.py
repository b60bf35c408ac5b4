"""Print a new API token for a user: `manage.py apitoken USERNAME [--create] [--role ROLE]`."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tourney.models import StaffRole
from tourney.staff.usecases import api_token_create, staff_user_ensure


class Command(BaseCommand):
    help = "Print a new API token for USERNAME on standard output (and nothing else there)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--create", action="store_true", help="create the user if missing")
        parser.add_argument(
            "--role", choices=[r for r in StaffRole.values if r != "display"] + ["display"]
        )
        parser.add_argument("--name", default="", help="what the token is for")

    def handle(self, *args, username: str, create: bool, role: str | None, name: str, **opts):
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if user is None:
            if not create:
                raise CommandError(f"No user {username!r}; pass --create to make one.")
            user = staff_user_ensure(actor=None, username=username, role=role or "director")
        elif role:
            staff_user_ensure(actor=None, username=username, role=role)
        raw, _token = api_token_create(actor=None, user=user, name=name or "manage.py apitoken")
        self.stdout.write(raw)
