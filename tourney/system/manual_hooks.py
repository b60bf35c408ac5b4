"""MkDocs hooks of the manual (mkdocs.yml): what the code knows, written into the pages at build.

- ``{{ house_rules_table }}`` in a page becomes the table of every house-rules profile's values,
  read from tourney/domain/house_rules_profiles.py, so the manual never disagrees with the code;
- the API's OpenAPI document is added to the site as ``openapi.json`` (the page api.md links
  it), made by the running code's schema.
"""

from __future__ import annotations

import json
import os

from mkdocs.plugins import event_priority

from tourney.domain.house_rules import PROFILES, describe

HOUSE_RULES_TABLE = "{{ house_rules_table }}"


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) or "—"
    return "—" if value is None else str(value).replace("|", "\\|")


def house_rules_table() -> str:
    """A Markdown table: a row per parameter, a column per profile (docs/rules.md's values)."""
    profiles = list(PROFILES.values())
    described = [describe(profile.rules) for profile in profiles]
    head = "| parameter | " + " | ".join(f"`{p.key}`" for p in profiles) + " |"
    rule = "|---|" + "---|" * len(profiles)
    rows = [
        f"| `{name}` | " + " | ".join(_cell(d[name]) for d in described) + " |"
        for name in described[0]
    ]
    sources = "\n".join(f"- `{p.key}`: **{p.name}**, {p.source}" for p in profiles)
    return f"{sources}\n\n{head}\n{rule}\n" + "\n".join(rows)


def on_page_markdown(markdown: str, page, config, files) -> str:
    if HOUSE_RULES_TABLE in markdown:
        markdown = markdown.replace(HOUSE_RULES_TABLE, house_rules_table())
    return markdown


def openapi_document() -> str:
    """The API's OpenAPI document as the running code serves it at /api/v1/openapi.json."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
    import django

    django.setup()
    from tourney.system.api import api

    return json.dumps(api.get_openapi_schema(), indent=1, default=str)


# After the i18n plugin's own on_files, which cannot place a file with no source path.
@event_priority(-100)
def on_files(files, config):
    from mkdocs.structure.files import File

    if files.get_file_from_path("openapi.json") is None:
        files.append(File.generated(config, "openapi.json", content=openapi_document()))
    return files
