"""The web process's ASGI handler keeps the threads that ran requests for the next ones."""

import asyncio
import threading

from asgiref.sync import async_to_sync
from django.core.signals import request_finished, request_started

from infra.web.asgi_handler import (
    CACHED_PATH_LENGTH,
    RequestThread,
    TourneyASGIHandler,
    _async_view_cached,
)
from tests.factories import asgi_http_scope

DEADLINE_S = 10


async def get(handler: TourneyASGIHandler, path: str) -> tuple[int, bytes]:
    """One GET through the handler as uvicorn makes it; (status, body)."""
    inbox: asyncio.Queue = asyncio.Queue()
    inbox.put_nowait({"type": "http.request", "body": b"", "more_body": False})
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    scope = asgi_http_scope(path, headers=[(b"host", b"127.0.0.1")])
    await asyncio.wait_for(handler(scope, inbox.get, send), DEADLINE_S)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], body


def test_a_request_runs_on_the_thread_an_earlier_one_ran_on():
    threads: list[tuple[str, int]] = []

    def started(**_kwargs):
        threads.append(("started", threading.get_ident()))

    def finished(**_kwargs):
        threads.append(("finished", threading.get_ident()))

    request_started.connect(started)
    request_finished.connect(finished)
    try:
        handler = TourneyASGIHandler()
        answers = [async_to_sync(get)(handler, "/api/v1/time") for _ in range(3)]
    finally:
        request_started.disconnect(started)
        request_finished.disconnect(finished)
    assert [status for status, _body in answers] == [200, 200, 200]
    assert len(threads) == 6 and len({ident for _signal, ident in threads}) == 1
    assert threads[0][1] != threading.get_ident()  # a thread of its own, not the caller's
    assert len(handler._idle) == 1


def test_a_sync_request_is_handed_to_its_thread_once(monkeypatch):
    """`request_started`, the view and the response's `close` (`request_finished`) run in one
    call on the request's thread: one hand-off, where Django's handler makes three."""
    calls: list[str] = []
    submit = RequestThread.submit

    def counted(self, fn, /, *args, **kwargs):
        calls.append(getattr(fn, "__name__", repr(fn)))
        return submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(RequestThread, "submit", counted)
    handler = TourneyASGIHandler()
    status, body = async_to_sync(get)(handler, "/api/v1/time")
    assert status == 200 and b"server_time_ms" in body
    assert len(calls) == 1


def test_a_static_file_is_streamed_and_closed():
    closed: list[bool] = []

    def finished(**_kwargs):
        closed.append(True)

    request_finished.connect(finished)
    try:
        status, body = async_to_sync(get)(TourneyASGIHandler(), "/static/js/clock.js")
    finally:
        request_finished.disconnect(finished)
    assert status == 200 and len(body) > 1_000
    assert closed == [True]


def test_a_thread_still_running_a_call_is_busy():
    thread = RequestThread()
    release = threading.Event()
    try:
        running = thread.submit(release.wait, DEADLINE_S)
        assert thread.busy
        release.set()
        running.result(DEADLINE_S)
        assert not thread.busy
    finally:
        thread.shutdown()


def test_whether_a_path_is_an_async_view_is_resolved_once_and_answered_alike():
    stream = "/api/v1/tournaments/7/events"
    long_path = "/api/v1/" + "x" * CACHED_PATH_LENGTH
    hits = _async_view_cached.cache_info().hits
    for _ in range(2):  # the second time from the answers kept
        assert TourneyASGIHandler._async_view(stream) is True
        assert TourneyASGIHandler._async_view("/api/v1/time") is False
        assert TourneyASGIHandler._async_view("/no/such/page") is False
        assert TourneyASGIHandler._async_view(long_path) is False  # resolved each time, not kept
    assert _async_view_cached.cache_info().hits - hits >= 3
