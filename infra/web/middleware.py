"""Per-user language: a staff member's chosen language wins over the browser's."""

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.utils import translation


class SyncAndAsyncMiddleware:
    """Sync and async capable, so an async view (the event stream) never hops to a thread.

    Subclasses write `handle(request)` (sync) and `ahandle(request)` (async)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(self.get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self.ahandle(request)
        return self.handle(request)

    def handle(self, request):
        raise NotImplementedError

    async def ahandle(self, request):
        raise NotImplementedError


class UserLanguageMiddleware(SyncAndAsyncMiddleware):
    @staticmethod
    def _apply(request) -> None:
        # LocaleMiddleware reads the language cookie; a display link may force ?lang=hu.
        lang = request.GET.get("lang")
        if lang and translation.check_for_language(lang):
            request.COOKIES["django_language"] = lang

    def handle(self, request):
        self._apply(request)
        return self.get_response(request)

    async def ahandle(self, request):
        self._apply(request)
        return await self.get_response(request)
