"""Refusals of the pure rules: a stable code for the API and an English message template that
the service translates into the reader's language (the domain may not import Django)."""


def N_(template: str) -> str:
    """Marks a message for translation (collected by makemessages); the service translates."""
    return template


class RuleError(ValueError):
    """A request the rules refuse. `code` is the API error code; `template` (English, %-style,
    marked with `N_`) and `params` let the service translate it; `message` is the English text.
    """

    def __init__(self, code: str, template: str, **params: object) -> None:
        self.code = code
        self.template = template
        self.params = params
        self.message = template % params if params else template
        super().__init__(self.message)
