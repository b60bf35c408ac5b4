"""The public page: no login, cached by the proxy (ETag and a short max-age), revocable."""

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.views.decorators.http import condition, require_safe

from tourney.public_page.selectors import public_etag, public_state, public_tournament

LANGUAGES = ("en", "hu", "cs")
# Readers see a change within this many seconds; the proxy answers the rest of them.
MAX_AGE = 10


def _accepted(header: str) -> str:
    """The reader's browser's first language the page is written in (Accept-Language, by its
    weights), else English. Read here rather than with Django's, which also reads a cookie:
    the proxy's copies vary by this header alone."""
    weighted = []
    for i, part in enumerate(header.split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        weighted.append((-weight, i, tag.split("-")[0].lower()))
    return next((lang for _w, _i, lang in sorted(weighted) if lang in LANGUAGES), "en")


def _language(request) -> str:
    """?lang= (the page's own links) first; a link given out without one opens in the reader's
    language (a Hungarian friend got English)."""
    lang = request.GET.get("lang", "")
    if lang in LANGUAGES:
        return lang
    return _accepted(request.headers.get("Accept-Language", ""))


def _etag(request, token: str) -> str | None:
    return public_etag(token, _language(request))


@require_safe
@condition(etag_func=_etag)
def page(request, token: str):
    """Rendered without the request (no session, no user, no CSRF token): what every reader
    gets is the same bytes, so the proxy can answer them all from one copy."""
    language = _language(request)
    with translation.override(language):
        tournament = public_tournament(token)
        if tournament is None:
            body = render_to_string("tourney/public_page/gone.html", {"lang": language})
            response = HttpResponse(body, status=404)
            response["Cache-Control"] = f"public, max-age={MAX_AGE}"
            return response
        body = render_to_string(
            "tourney/public_page/page.html",
            {
                "tournament": tournament,
                "state": public_state(tournament),
                "lang": language,
                "languages": LANGUAGES,
                "token": token,
                "max_age": MAX_AGE,
            },
        )
    response = HttpResponse(body)
    response["Cache-Control"] = f"public, max-age={MAX_AGE}"
    response["Referrer-Policy"] = "no-referrer"
    response["Content-Language"] = language
    return response
