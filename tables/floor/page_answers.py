"""How a page's form answers (the floor's, the penalties', the color-ups'): a form posted by
htmx (`HX-Request`) gets 204 (done) or 422 (refused) with
`HX-Trigger: {"floor:done": {"ok", "toasts"}}`, which static/js/floor.js shows as toasts; a
plain form gets Django messages and a redirect back."""

import json
import re

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme

from tourney.schema_types import INT64_MAX


def is_htmx(request: HttpRequest) -> bool:
    """The request comes from htmx."""
    return request.headers.get("HX-Request") == "true"


def back_url(request: HttpRequest, fallback: str) -> str:
    """The form's `next` when it is on this site, else `fallback`."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


MESSAGE_LEVELS = {
    "ok": messages.SUCCESS,
    "warn": messages.WARNING,
    "bad": messages.ERROR,
    "info": messages.INFO,
}


def toast(
    message: str, kind: str = "ok", undo_url: str | None = None, link: dict | None = None
) -> dict:
    row = {"message": message, "kind": kind}
    if undo_url:
        row["undoUrl"] = undo_url
    if link:
        row["link"] = link
    return row


def answer(request: HttpRequest, toasts: list[dict], ok: bool, fallback: str) -> HttpResponse:
    """204/422 with toasts for htmx; messages and a redirect for a plain form."""
    if is_htmx(request):
        response = HttpResponse(status=204 if ok else 422)
        # ASCII-only JSON: header values must be latin-1, player names need not be.
        response["HX-Trigger"] = json.dumps({"floor:done": {"ok": ok, "toasts": toasts}})
        return response
    for row in toasts:
        tags = f"undo:{row['undoUrl']}" if row.get("undoUrl") else ""
        messages.add_message(request, MESSAGE_LEVELS[row["kind"]], row["message"], extra_tags=tags)
    return redirect(back_url(request, fallback))


def refused(request: HttpRequest, detail: str, fallback: str) -> HttpResponse:
    return answer(request, [toast(detail, "bad")], ok=False, fallback=fallback)


def whole_number(value: str | None, most: int = INT64_MAX) -> int | None:
    """A whole number up to `most` as a person types it ("12 000", "12,000", "12.000"), else
    None (so is "²": a digit to str.isdigit, not to int; the default bound is the API's Id)."""
    cleaned = re.sub(r"[\s,.'\u00a0\u202f]", "", value or "")
    if not (cleaned.isascii() and cleaned.isdigit()):
        return None
    number = int(cleaned)
    return number if number <= most else None
