"""How a page's form answers (the floor's, the penalties', the color-ups'): a form posted by
htmx (`HX-Request`) gets 204 (done) or 422 (refused) with
`HX-Trigger: {"floor:done": {"ok", "toasts"}}`, which static/js/floor.js shows as toasts; a
plain form gets Django messages and a redirect back."""

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme


def is_htmx(request: HttpRequest) -> bool:
    """The request comes from htmx."""
    return request.headers.get("HX-Request") == "true"


def back_url(request: HttpRequest, fallback: str) -> str:
    """The form's `next` when it is on this site, else `fallback` (the one check of every
    page's `next`: never redirect to a form's value without it)."""
    target = request.POST.get("next", "")
    # A path of this site only: "-1" or "2147483648" is no URL (redirect() would look it up as
    # a view's name and fail), and "//evil.example" is another site.
    if target.startswith("/") and url_has_allowed_host_and_scheme(
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
    """204/422 with toasts for htmx; messages and a redirect for a plain form, to its `next`
    when that is on this site, else to `fallback` (a URL of ours, never the form's)."""
    if is_htmx(request):
        response = HttpResponse(status=204 if ok else 422)
        # ASCII-only JSON: header values must be latin-1, player names need not be.
        response["HX-Trigger"] = json.dumps({"floor:done": {"ok": ok, "toasts": toasts}})
        return response
    for row in toasts:
        tags = f"undo:{row['undoUrl']}" if row.get("undoUrl") else ""
        messages.add_message(request, MESSAGE_LEVELS[row["kind"]], row["message"], extra_tags=tags)
    return HttpResponseRedirect(back_url(request, fallback))


def refused(request: HttpRequest, detail: str, fallback: str) -> HttpResponse:
    return answer(request, [toast(detail, "bad")], ok=False, fallback=fallback)
