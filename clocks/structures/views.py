"""Blind structure pages: the list with import, the editor, duplicate and the printable sheet.

The editor itself saves through the JSON API (`PUT/POST /api/v1/structures`, preview as you
type); these views only render and call services.
"""

import dataclasses
import json
import re

from django.contrib import messages
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST
from pydantic import ValidationError

from clocks.domain.clock import level_numbers
from clocks.domain.colorup import chips_in_play
from clocks.domain.structures import TEMPLATES, StructureData, structure_payload, total_seconds
from clocks.models import Structure
from clocks.structures.forms import MAX_IMPORT_BYTES, StructureImportForm
from clocks.structures.schemas import StructureIn
from clocks.structures.selectors import structure_data
from clocks.structures.usecases import (
    structure_create,
    structure_data_from_payload,
    structure_duplicate,
    structure_locked_through,
)
from infra.web.form_fields import first_error
from infra.web.schema_types import json_loads
from tourney.core import roles
from tourney.system.pages import role_required, run_service

# Colours offered for chips (any other name typed in an imported file is kept as it is).
CHIP_COLORS = [
    ("white", "#f4f4f1"),
    ("grey", "#9aa1a9"),
    ("red", "#c62f35"),
    ("blue", "#2457c5"),
    ("green", "#1f8a4c"),
    ("black", "#1b1f24"),
    ("yellow", "#e8b730"),
    ("orange", "#e07a1f"),
    ("purple", "#6d3fc0"),
    ("pink", "#e26aa8"),
    ("brown", "#7b4a2a"),
]


def duration_text(seconds: int) -> str:
    """Playing time as "5 h 20 min" (or "45 min")."""
    hours, minutes = divmod(round(seconds / 60), 60)
    if hours:
        return _("%(h)d h %(m)02d min") % {"h": hours, "m": minutes}
    return _("%(m)d min") % {"m": minutes}


def chip_swatches(chips: list[dict]) -> list[dict]:
    """Chips with a CSS colour for their swatch (a colour name CSS knows is used as it is)."""
    colors = dict(CHIP_COLORS)
    return [{**c, "css": colors.get(c["color"].lower(), c["color"])} for c in chips]


def _starter() -> StructureData:
    """A new structure starts as a copy of the first template's chips and first levels."""
    template = next(iter(TEMPLATES.values()))
    return StructureData(
        name=_("New structure"),
        chips=template.chips,
        periods=template.periods[:5],
        starting_stack=template.starting_stack,
    )


def _list_rows() -> list[dict]:
    rows = []
    for structure in Structure.objects.prefetch_related("levels").annotate(
        tournament_count=Count("tournaments")
    ):
        periods = structure_data(structure).periods
        rows.append(
            {
                "structure": structure,
                "levels": sum(1 for p in periods if p.kind == "level"),
                "breaks": sum(1 for p in periods if p.kind == "break"),
                "duration": duration_text(total_seconds(periods)),
                "tournaments": structure.tournament_count,
                "chips": chip_swatches(structure.chips),
            }
        )
    # Templates first, then the newest
    rows.sort(key=lambda r: (not r["structure"].template_key, -r["structure"].pk))
    return rows


@role_required("floor")
def structure_list(request, import_text: str = ""):
    return render(
        request,
        "clocks/structures.html",
        {
            "rows": _list_rows(),
            "can_edit": roles.can(request.user, "director"),
            "import_text": import_text,
        },
    )


def editor_strings() -> dict[str, str]:
    """The editor script's words, in the reader's language."""
    return {
        "level": _("Level"),
        "break": _("Break"),
        "breakN": _("Break %(n)s"),
        "colorUp": _("Color up"),
        "noChipsToColorUp": _("no chips"),
        "suggested": _("Suggested: %(chips)s"),
        "suggestedNone": _("Suggested: keep every chip"),
        "matchesSuggestion": _("As suggested"),
        "apply": _("Apply"),
        "moveUp": _("Move up"),
        "moveDown": _("Move down"),
        "duplicate": _("Duplicate"),
        "remove": _("Remove"),
        "locked": _("Locked: already in play"),
        "saved": _("Saved"),
        "created": _("Created"),
        "ready": _("Ready to save"),
        "fixFirst": _("Fix this before saving"),
        "hoursMinutes": _("%(h)s h %(m)s min"),
        "minutes": _("%(m)s min"),
        "nextDay": _("(next day)"),
        "stackInBB": _("%(bb)s big blinds at level 1"),
        "cannotShorten": _("A level would last 0 minutes or less; nothing was changed."),
        "lastLevel": _("A structure needs at least one level."),
        "chipValue": _("Chip value"),
        "chipColour": _("Chip colour"),
        "unsavedLeave": _("You have unsaved changes."),
        "applied": _("Color-up applied"),
    }


# The built-in templates' notes, stored in English (clocks/domain/structures.py) and shown in
# the reader's language; listed here so makemessages finds them.
TEMPLATE_DESCRIPTIONS = (
    gettext_noop(
        "The Rimóc Youth Association's championship: blinds rise every 15 minutes, a break every "
        "four levels, starting stack 40,000. Break length (10 min) and color-ups are Tourney "
        "defaults."
    ),
)


def _editor(request, structure: Structure | None, data: StructureData):
    editable = roles.can(request.user, "director") and not (structure and structure.template_key)
    if structure and structure.template_key and data.description:
        data = dataclasses.replace(data, description=_(data.description))
    config = {
        "id": structure.pk if structure else None,
        "structure": structure_payload(data),
        "editable": editable,
        "locked_through": structure_locked_through(structure) if structure else -1,
        "colors": dict(CHIP_COLORS),
        "i18n": editor_strings(),
        # The editor replaces the 0 with the id of a structure it has just created.
        "edit_url": reverse("clocks:structure_edit", args=[0]),
    }
    return render(
        request,
        "clocks/structure_edit.html",
        {
            "structure": structure,
            "data": data,
            "config": config,
            "editable": editable,
            "chip_colors": CHIP_COLORS,
            "shortcuts": [
                ("↑ ↓ Enter", _("Move between rows")),
                ("Alt+↑ Alt+↓", _("Move the row up or down")),
                ("Alt+L", _("Add a level below")),
                ("Alt+B", _("Add a break below")),
                ("Alt+D", _("Duplicate the row")),
                ("Alt+Delete", _("Remove the row")),
                ("Ctrl+S", _("Save")),
            ],
        },
    )


@role_required("director")
def structure_new(request):
    return _editor(request, None, _starter())


@role_required("floor")
def structure_edit(request, structure_id: int):
    structure = get_object_or_404(Structure.objects.prefetch_related("levels"), pk=structure_id)
    return _editor(request, structure, structure_data(structure))


@require_POST
@role_required("director")
def structure_copy(request, structure_id: int):
    copy = run_service(
        request,
        lambda: structure_duplicate(actor=request.user, structure_id=structure_id),
    )
    if copy is None:
        return redirect("clocks:structures")
    messages.success(request, _("Copied. You are editing the copy."))
    return redirect("clocks:structure_edit", copy.pk)


def _import_payload(request, form: StructureImportForm) -> tuple[dict | None, str]:
    """The uploaded or pasted JSON as a dict, or None and a message saying what is wrong."""
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size > MAX_IMPORT_BYTES:
            return None, _("The file is too large for a blind structure.")
        raw = upload.read().decode("utf-8-sig", errors="replace")
    elif not form.is_valid():
        return None, first_error(form)
    else:
        raw = form.cleaned_data["text"]
    if not raw.strip():
        return None, _("Choose a .json file or paste a structure.")
    try:
        payload = json_loads(raw)
    except json.JSONDecodeError as exc:
        return None, _("This is not JSON (line %(line)s, column %(col)s: %(msg)s).") % {
            "line": exc.lineno,
            "col": exc.colno,
            "msg": exc.msg,
        }
    except ValueError:  # a number past any structure's (5,000 digits, 1e999999)
        return None, _("A number in this file is too large for a blind structure.")
    except RecursionError:  # nested deeper than any structure
        payload = None
    if not isinstance(payload, dict):
        return None, _("The JSON must be one object with name, chips and levels.")
    return payload, raw


@require_POST
@role_required("director")
def structure_import(request):
    form = StructureImportForm(request.POST)
    payload, raw_or_error = _import_payload(request, form)
    if payload is None:
        messages.error(request, raw_or_error)
        text = form.cleaned_data.get("text", "") if form.is_valid() else ""
        return structure_list(request, import_text=text)
    try:
        parsed = StructureIn.model_validate(payload)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()[:5]
        )
        messages.error(request, _("The structure is not valid: %(errors)s") % {"errors": problems})
        return structure_list(request, import_text=raw_or_error)
    data = structure_data_from_payload(parsed.dict())
    structure = run_service(request, lambda: structure_create(actor=request.user, data=data))
    if structure is None:
        return structure_list(request, import_text=raw_or_error)
    messages.success(request, _("Imported %(name)s.") % {"name": structure.name})
    return redirect("clocks:structure_edit", structure.pk)


START_TIME = re.compile(r"^\s*(\d{1,2})\s*[:.h]?\s*(\d{2})?\s*$")


def parse_start(text: str) -> int:
    """Minutes after midnight of a 24-hour time typed as 19:00, 19.00 or 1900 (else 19:00)."""
    match = START_TIME.match(text)
    if match and int(match[1]) < 24 and int(match[2] or 0) < 60:
        return int(match[1]) * 60 + int(match[2] or 0)
    return 19 * 60


@role_required("floor")
def structure_print(request, structure_id: int):
    """The structure sheet: levels with start times from `?start=HH:MM` (default 19:00)."""
    structure = get_object_or_404(Structure.objects.prefetch_related("levels"), pk=structure_id)
    data = structure_data(structure)
    start_minutes = parse_start(request.GET.get("start", ""))
    chip_values = [c.value for c in data.chips]
    numbers = level_numbers(data.periods)
    rows, elapsed = [], 0
    for index, period in enumerate(data.periods):
        begins = (start_minutes * 60 + elapsed) // 60
        rows.append(
            {
                "period": period,
                "level": numbers[index],
                "starts": f"{begins // 60 % 24:02d}:{begins % 60:02d}",
                "minutes": period.duration_seconds / 60,
                "chips": chips_in_play(chip_values, data.periods, index),
            }
        )
        elapsed += period.duration_seconds
    ends = (start_minutes * 60 + elapsed) // 60
    return render(
        request,
        "clocks/structure_print.html",
        {
            "structure": structure,
            "data": data,
            "rows": rows,
            "chips": chip_swatches([{"value": c.value, "color": c.color} for c in data.chips]),
            "start": f"{start_minutes // 60:02d}:{start_minutes % 60:02d}",
            "end": f"{ends // 60 % 24:02d}:{ends % 60:02d}",
            "duration": duration_text(elapsed),
            "level_count": sum(1 for n in numbers if n is not None),
        },
    )
