"""The ASGI handler of a web process: Django's, with one thread hand-off per request.

Django's ASGI handler runs the middleware chain on the event loop. Its built-in middlewares
are sync at heart: in async mode each hook (process_request, process_view, process_response)
is sent to the request's thread and back, and a sync-only one (WhiteNoise) sends the rest of the
chain back to the loop; with the view itself that made some thirty hand-offs between the loop
and the request's thread for every API call, each a thread wake-up (a registration took 23.6 ms
over HTTP against 7.7 ms in-process, docs/benchmarks.md). Here a request for a sync view runs
Django's sync handler, the whole middleware chain and the view, in the request's thread in one
go, exactly as under WSGI and in the tests (django.test.Client), together with the
`request_started` signal before it and the response's `close` after it (Django hands each of
those to the thread on its own: three thread wake-ups each way per request, where one does);
only async views (the event stream) take the async chain, where a thousand screens cost no
thread at all.

The request's thread is kept for the next request: Django gives each request a thread of its
own (asgiref's `ThreadSensitiveContext`), started for it and joined after it by yet another
thread, two thread starts per request. Here a request takes an idle one of the threads that
earlier requests ran on, or starts one when none is idle (as many as requests run at once).
"""

import functools
from concurrent.futures import Future, ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, iscoroutinefunction, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse, HttpResponseBase
from django.urls import Resolver404, get_resolver, set_script_prefix

IDLE_THREADS_KEPT = 32


class RequestThread(ThreadPoolExecutor):
    """One thread that runs a request's sync work, one call at a time; `busy` while a call
    submitted to it has not finished (a view still running for a client gone away)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="request")
        self._pending: list[Future] = []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future = super().submit(fn, *args, **kwargs)
        self._pending = [f for f in self._pending if not f.done()]
        self._pending.append(future)
        return future

    @property
    def busy(self) -> bool:
        return any(not f.done() for f in self._pending)


class TourneyASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()  # the async chain
        self._sync = BaseHandler()
        self._sync.load_middleware(is_async=False)
        self._idle: list[RequestThread] = []  # touched on the event loop only

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":  # as Django's
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        thread = self._idle.pop() if self._idle else RequestThread()
        try:
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, send)
        finally:
            if thread.busy or len(self._idle) >= IDLE_THREADS_KEPT:
                thread.shutdown(wait=False)  # ends once its call returns
            else:
                self._idle.append(thread)

    @staticmethod
    def _async_view(path: str) -> bool:
        resolver = get_resolver()
        if len(path) > CACHED_PATH_LENGTH:
            return _resolves_to_async_view(resolver, path)
        return _async_view_cached(resolver, path)

    async def handle(self, scope, receive, send):
        script_name = get_script_prefix(scope)
        if self._async_view(scope["path"].removeprefix(script_name)):
            return await super().handle(scope, receive, send)
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(script_name)
        try:
            # thread-sensitive: the request's own thread (its ThreadSensitiveContext)
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            await self.send_response(response, send)
            if response.streaming:  # closed once its iterator is spent (a static file)
                await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope, body_file) -> HttpResponseBase:
        """In the request's thread, in one go: what Django's handler does in three hand-offs
        between the event loop and that thread (`request_started`, the middleware chain and
        the view, the response's `close`, which sends `request_finished` and gives the
        database connection back to the pool). A sync view cannot be cancelled midway, so
        Django's watch for the client's disconnect is not kept; a response for a client gone
        away is dropped by the server."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self._sync.get_response(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        if not response.streaming:
            response.close()  # its content is already in memory
        return response


def _resolves_to_async_view(resolver, path: str) -> bool:  # type: ignore[no-untyped-def]
    try:
        return iscoroutinefunction(resolver.resolve(path).func)
    except Resolver404:
        return False  # the sync chain answers (404, or a redirect by CommonMiddleware)


# The URL conf does not change while a process runs: a path's answer is kept (a script
# registering players posts to one path; resolving it cost 1.5 % of a registration's CPU on
# the event loop, besides the resolve of Django's own handler). Short paths only, a bounded
# number of them, so that odd URLs cannot fill the memory.
CACHED_PATH_LENGTH = 200
_async_view_cached = functools.lru_cache(maxsize=2048)(_resolves_to_async_view)
