"""makemessages that also collects audit summaries (`audit_text("...")`) and the domain's
messages marked `N_("...")` (pure modules cannot import Django's gettext)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=audit_text",
        "--keyword=N_",
    ]
