"""System checks of the deployment (`manage.py check --deploy`)."""

from django.conf import settings
from django.core import checks

from infra.secret_key import refusal


@checks.register(checks.Tags.security, deploy=True)
def public_secret_key(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """The public built-in key would let anyone forge sessions and display links."""
    reason = refusal(settings.SECRET_KEY, debug=False)
    return [checks.Error(reason, id="tourney.E001")] if reason else []
