"""Per-user language: a staff member's chosen language wins over the browser's."""

from django.utils import translation


class UserLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # LocaleMiddleware reads the language cookie; a display link may force ?lang=hu.
        lang = request.GET.get("lang")
        if lang and translation.check_for_language(lang):
            request.COOKIES["django_language"] = lang
        return self.get_response(request)
