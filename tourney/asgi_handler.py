"""The ASGI handler of a web process: Django's, with one thread hand-off per request.

Django's ASGI handler runs the middleware chain on the event loop. Its built-in middlewares
are sync at heart: in async mode each hook (process_request, process_view, process_response)
is sent to the request's thread and back, and a sync-only one (WhiteNoise) sends the rest of the
chain back to the loop; with the view itself that made some thirty hand-offs between the loop
and the request's thread for every API call, each a thread wake-up (a registration took 23.6 ms
over HTTP against 7.7 ms in-process, docs/benchmarks.md). Here a request for a sync view runs
Django's sync handler, the whole middleware chain and the view, in the request's thread in one
go, exactly as under WSGI and in the tests (django.test.Client); only async views (the event
stream) take the async chain, where a thousand screens cost no thread at all.
"""

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.urls import Resolver404, get_resolver


class TourneyASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()  # the async chain
        self._sync = BaseHandler()
        self._sync.load_middleware(is_async=False)

    @staticmethod
    def _async_view(path: str) -> bool:
        try:
            return iscoroutinefunction(get_resolver().resolve(path).func)
        except Resolver404:
            return False  # the sync chain answers (404, or a redirect by CommonMiddleware)

    async def get_response_async(self, request):
        if self._async_view(request.path_info):
            return await super().get_response_async(request)
        # thread-sensitive: the request's own thread (a ThreadSensitiveContext per request),
        # the one its signals and database connection also use
        return await sync_to_async(self._sync.get_response, thread_sensitive=True)(request)
