"""The director's manual at /manual/: the static site `manage.py manual` builds (docs/)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from django.views.static import serve


def manual(request, path: str = ""):
    """A file of the built manual; a folder's index.html; a hint when it was never built."""
    root = Path(settings.TOURNEY_MANUAL_DIR)
    if not (root / "index.html").exists():
        hint = _(
            "The manual is not built yet on this server: the quick start builds it as it "
            "starts, or run “python manage.py manual”."
        )
        return HttpResponse(hint, status=503, content_type="text/plain; charset=utf-8")
    if path == "" or path.endswith("/"):
        path += "index.html"
    try:
        return serve(request, path, document_root=str(root))
    except Http404:
        if (root / path / "index.html").is_file():
            return serve(request, f"{path}/index.html", document_root=str(root))
        raise
