"""The error contract of everything under /api/ (README, "The API": `{code, detail}` with
401/403/404/409/422), and text with control characters refused on every page.

Before a view runs, the middleware refuses what no endpoint may take: a body larger than
DATA_UPLOAD_MAX_MEMORY_SIZE (413), a body that is not a JSON object (malformed JSON, a string,
an array, null or a number: 422, also on endpoints that take no body), and text holding NUL
or other control characters, in the body or the query string (422). After it, any refusal
that is not already `{code, detail}` JSON (Django's 404 and 405, a 400, a 500) becomes one.
The parsed body is kept on the request for the API's parser, so JSON is decoded once.
"""

import json
import logging
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.views import defaults
from ninja import NinjaAPI
from ninja.parser import Parser

from infra.web.middleware import SyncAndAsyncMiddleware
from infra.web.schema_types import bad_character, json_loads

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")
_PARSED = "_tourney_json"
ERROR_REF = "#/components/schemas/ErrorOut"
ERROR_SCHEMA = {
    "title": "ErrorOut",
    "type": "object",
    "properties": {"code": {"type": "string"}, "detail": {"type": "string"}},
    "required": ["code", "detail"],
}


class InputRefused(Exception):
    def __init__(self, status: int, code: str, detail: str):
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


def error(status: int, code: str, detail: str, headers: dict | None = None) -> JsonResponse:
    response = JsonResponse({"code": code, "detail": detail}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _check_text(value: Any) -> None:
    """Walk a decoded JSON value: every string and key must be free of control characters."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if bad_character(item, multiline=True) is not None:
                raise InputRefused(
                    422,
                    "invalid_text",
                    _("Text may not contain NUL or other control characters."),
                )
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def check_query(query: QueryDict, multiline: bool = False) -> None:
    """Refuse a query string (or form) with a control character in a name or value."""
    for key, values in query.lists():
        for text in (key, *values):
            if bad_character(text, multiline) is not None:
                raise InputRefused(
                    422,
                    "invalid_text",
                    _("Text may not contain NUL or other control characters."),
                )


def _body_size(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def check_request(request: HttpRequest) -> None:
    """Raise InputRefused for a request no API endpoint may take; keep its parsed body."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    too_large = InputRefused(
        413,
        "request_too_large",
        _("The request body is larger than %(limit)s bytes.") % {"limit": limit},
    )
    if limit is not None and _body_size(request) > limit:
        raise too_large
    check_query(request.GET)
    try:
        body = request.body
    except RequestDataTooBig:
        raise too_large from None
    if not body.strip():
        return
    content_type = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
    if content_type in FORM_TYPES and not request.POST and not request.FILES:
        return  # an empty form (a test client's bare POST) is no body
    not_json = InputRefused(
        422, "invalid_json", _("The request body must be a JSON object (or nothing).")
    )
    try:
        data = json_loads(body)
    except ValueError:  # JSONDecodeError, UnicodeDecodeError, NaN, Infinity, 5,000 digits
        raise not_json from None
    except RecursionError:
        raise not_json from None
    if not isinstance(data, dict):
        raise not_json
    _check_text(data)
    setattr(request, _PARSED, data)


def check_page(request: HttpRequest) -> None:
    """A page's query and form: text with NUL or control characters (line breaks and tabs
    aside: a text area may hold them) is refused before any view reads it."""
    check_query(request.GET)
    if request.method == "POST":
        try:
            check_query(request.POST, multiline=True)
        except RequestDataTooBig:
            return  # Django answers the oversized form itself


_CODES = {
    400: ("bad_request", N_("The request is not valid.")),
    401: ("not_authenticated", N_("Log in or send a valid bearer token.")),
    403: ("forbidden", N_("You may not do this.")),
    404: ("not_found", N_("There is no such object.")),
    405: ("method_not_allowed", N_("This method is not allowed here.")),
    413: ("request_too_large", N_("The request body is too large.")),
    422: ("invalid_input", N_("The request is not valid.")),
    500: ("server_error", N_("The server failed; nothing was changed.")),
}


def status_code(status: int) -> tuple[str, str]:
    """The code and (untranslated) detail of a refusal that has no code of its own."""
    return _CODES.get(status, ("error", N_("The request failed.")))


def _as_contract(response: HttpResponse) -> HttpResponse:
    """The same refusal as `{code, detail}` JSON when it is not JSON already."""
    if response.status_code < 400 or getattr(response, "streaming", False):
        return response
    if response.get("Content-Type", "").startswith("application/json"):
        return response
    code, detail = status_code(response.status_code)
    headers = {"Allow": response["Allow"]} if response.has_header("Allow") else None
    return error(response.status_code, code, _(detail), headers)


def outage(exc: BaseException | None) -> tuple[str, str] | None:
    """`(code, detail)` when `exc` says a service is out of reach (the database stopped or
    restarting, its pool exhausted, SQLite locked past its timeout; Redis down), else None: the
    request failed for a reason that passes, not for its content, and nothing was changed (a
    use case's transaction rolled back)."""
    from django.db import InterfaceError, OperationalError

    if isinstance(exc, OperationalError | InterfaceError):
        return "database_unavailable", _(
            "The database cannot be reached at the moment; nothing was changed. "
            "Try again in a few seconds."
        )
    from kombu.exceptions import OperationalError as BrokerError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    if isinstance(exc, BrokerError | RedisConnectionError | RedisTimeoutError):
        return "broker_unavailable", _(
            "Redis cannot be reached at the moment; nothing was changed. "
            "Try again in a few seconds."
        )
    return None


RETRY_AFTER_SECONDS = "5"


def outage_response(request: HttpRequest, code: str, detail: str) -> HttpResponse:
    """503 `{code, detail}` under /api/, else a page that needs nothing of the database (the
    usual pages read the session and the user from it)."""
    headers = {"Retry-After": RETRY_AFTER_SECONDS}
    if request.path.startswith(API_PREFIX):
        return error(503, code, detail, headers)
    page = render_to_string(
        "unavailable.html", {"detail": detail, "reload": request.method == "GET"}
    )
    response = HttpResponse(page, status=503)
    response["Retry-After"] = RETRY_AFTER_SECONDS
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's handler500: an outage raised where no view caught it (a middleware reading the
    session) is still a 503 that says what is down; anything else is the 500 it was."""
    found = outage(sys.exc_info()[1])
    if found is not None:
        return outage_response(request, *found)
    if request.path.startswith(API_PREFIX):
        code, detail = status_code(500)
        return error(500, code, _(detail))
    return defaults.server_error(request)


class ApiContractMiddleware(SyncAndAsyncMiddleware):
    @staticmethod
    def _refusal(request) -> HttpResponse | None:
        try:
            if request.path.startswith(API_PREFIX):
                check_request(request)
            else:
                check_page(request)
        except InputRefused as refused:
            if request.path.startswith(API_PREFIX):
                return error(refused.status, refused.code, refused.detail)
            return render(request, "bad_input.html", status=refused.status)
        return None

    def handle(self, request):
        refusal = self._refusal(request)
        if refusal is not None:
            return refusal
        response = self.get_response(request)
        return _as_contract(response) if request.path.startswith(API_PREFIX) else response

    def process_exception(self, request, exception):
        """A database or broker outage in a view answers 503, never 500 (error contract)."""
        found = outage(exception)
        if found is None:
            return None
        logger.warning("%s on %s %s: %s", found[0], request.method, request.path, exception)
        return outage_response(request, *found)

    async def ahandle(self, request):
        refusal = self._refusal(request)
        if refusal is not None:
            return refusal
        response = await self.get_response(request)
        return _as_contract(response) if request.path.startswith(API_PREFIX) else response


class CheckedJsonParser(Parser):
    """The body the middleware already decoded and checked (a JSON object)."""

    def parse_body(self, request: HttpRequest) -> dict:
        if hasattr(request, _PARSED):
            return getattr(request, _PARSED)
        data = json_loads(request.body)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return data


class ContractAPI(NinjaAPI):
    """The API, its OpenAPI document listing the refusals any operation can answer: 405, 413
    and 422 from the contract middleware, 401 and 403 where credentials are needed, 404 where
    an id is in the path (each `{code, detail}` as ErrorOut). `operation_ids` is a JSON file
    mapping a view function's dotted path to the operation id it is published under."""

    def __init__(self, *args: Any, operation_ids: Path | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.frozen_operation_ids: dict[str, str] = (
            json.loads(operation_ids.read_text()) if operation_ids else {}
        )

    def get_openapi_operation_id(self, operation) -> str:
        """The operation's id as it was when its module was first published: other programs
        call the API by these ids, and a module that moves keeps them (the key names the view
        function where it lives today)."""
        view = operation.view_func
        frozen = self.frozen_operation_ids.get(f"{view.__module__}.{view.__name__}")
        return frozen or super().get_openapi_operation_id(operation)

    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        error = {"content": {"application/json": {"schema": {"$ref": ERROR_REF}}}}
        for operations in schema["paths"].values():
            for operation in operations.values():
                codes = {405, 413, 422}
                if operation.get("security"):
                    codes |= {401, 403}
                if any(p.get("in") == "path" for p in operation.get("parameters", [])):
                    codes.add(404)
                responses = operation.setdefault("responses", {})
                for code in sorted(codes):
                    responses.setdefault(str(code), {"description": _CODES[code][1], **error})
        schema.setdefault("components", {}).setdefault("schemas", {}).setdefault(
            "ErrorOut", ERROR_SCHEMA
        )
        return schema
