"""Refusals that services raise and the API turns into `{code, detail}` responses."""

from django.utils.functional import Promise
from django.utils.translation import gettext

from tourney.domain.refusal import RuleError


class TourneyError(Exception):
    """A refused request: nothing was changed. `detail` is a sentence for a person."""

    status_code = 409

    def __init__(self, code: str, detail: str | Promise, status_code: int | None = None):
        super().__init__(str(detail))
        self.code = code
        self.detail = str(detail)
        if status_code is not None:
            self.status_code = status_code


class NotFound(TourneyError):
    status_code = 404


class Conflict(TourneyError):
    status_code = 409


class InvalidInput(TourneyError):
    status_code = 422


class PermissionDenied(TourneyError):
    status_code = 403


def refusal(exc: RuleError, error: type[TourneyError] = Conflict) -> TourneyError:
    """The API refusal for a rule the domain refused, its message in the reader's language."""
    template = gettext(exc.template)
    return error(exc.code, template % exc.params if exc.params else template)
