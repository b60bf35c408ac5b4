"""makemessages that also collects audit summaries written with `audit_text("...")`."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=audit_text"]
