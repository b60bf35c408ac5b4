from django.apps import AppConfig
from django.db import connections
from django.db.models.signals import post_migrate, pre_migrate
from django.utils.translation import gettext_lazy as _


def _drop_triggers(sender, using: str, **kwargs) -> None:
    from tourney.core.db_triggers import triggers_drop

    if connections[using].vendor == "sqlite":
        triggers_drop(connections[using])


def _install_triggers(sender, using: str, **kwargs) -> None:
    from tourney.core.db_triggers import triggers_install

    if connections[using].vendor == "sqlite":
        triggers_install(connections[using])


class TourneyConfig(AppConfig):
    name = "tourney"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tourney.system import checks  # noqa: F401  (registers the deployment checks)

        # The triggers are a migration's (0013); SQLite loses a table's triggers when a
        # migration rebuilds the table, so there they are put back around every migrate: see
        # tourney/core/db_triggers.py.
        pre_migrate.connect(_drop_triggers, sender=self, dispatch_uid="tourney_triggers_drop")
        post_migrate.connect(
            _install_triggers, sender=self, dispatch_uid="tourney_triggers_install"
        )
