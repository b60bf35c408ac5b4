"""Every form of the pages, fuzzed (issue 24): the staff pages of a running evening are crawled
from the home page as a director's browser finds them (links, htmx partials), and every form
found (the desk, settings, structures, payouts, penalties, the floor, the festival ...) is
posted with each field in turn replaced by what a mistyped or hostile form sends: numbers past
32 and 64 bits, 5,000 digits, 1e999999, "²", NaN, NUL. A GET form and every query parameter of
a link get the same. No answer may be a 500, and no redirect may leave the site.

The API has its own fuzzing (tests/test_api_fuzz.py, Schemathesis over the OpenAPI document).
"""

import random
import re
from collections import deque
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from django.test import Client

from tests.e2e.evening import Evening
from tests.tourney.festival_steps import (
    bag_flight,
    festival_hall,
    flight,
    main_event,
    play_flight,
    players,
)
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Entry
from tourney.penalties.usecases import penalty_give
from tourney.public_page.selectors import public_token

pytestmark = pytest.mark.django_db

FUZZ = [
    "2147483648",
    "9223372036854775808",
    "-9223372036854775809",
    "9" * 5_000,
    "1e999999",
    "NaN",
    "²",
    "-1",
    "a\x00b",
    "",
]
HOSTILE_NEXT = ["https://evil.example/phish", "//evil.example/x"]
SKIP = re.compile(r"^/(api|admin|static|i18n|manual|logout|login|media)/|^/favicon")
# Pages of one shape (a table's dealer page, a player's page): two of each are enough.
PER_SHAPE = 2
MAX_PAGES = 400


class PageParser(HTMLParser):
    """The links (href, hx-get) and the forms (fields with the values a browser would send)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: (v or "") for k, v in attrs}
        for key in ("href", "hx-get"):
            if a.get(key) and tag != "link":
                self.links.append(a[key])
        if tag == "form":
            method = "post" if (a.get("method", "").lower() == "post" or "hx-post" in a) else "get"
            action = a.get("hx-post") or a.get("action") or ""
            self._form = {"method": method, "action": action, "fields": {}}
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input" and a.get("name"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                self._form["fields"].setdefault(a["name"], None)
            else:
                self._form["fields"][a["name"]] = a.get("value", "")
        elif tag == "button" and a.get("name"):
            self._form["fields"].setdefault(a["name"], a.get("value", ""))
        elif tag == "select" and a.get("name"):
            self._select = a["name"]
            self._form["fields"].setdefault(a["name"], None)
        elif tag == "option" and self._select:
            fields = self._form["fields"]
            if fields.get(self._select) is None or "selected" in a:
                fields[self._select] = a.get("value", "")
        elif tag == "textarea" and a.get("name"):
            self._textarea = a["name"]
            self._form["fields"][a["name"]] = ""

    def handle_data(self, data: str) -> None:
        if self._form is not None and self._textarea:
            self._form["fields"][self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def _local(url: str, base: str) -> str | None:
    """The path and query of a link of this site (None: elsewhere, a fragment, a script)."""
    if not url or url.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
        return None
    parts = urlsplit(url)
    if parts.netloc and parts.netloc != "testserver":
        return None
    path = parts.path or urlsplit(base).path
    if not path.startswith("/"):
        path = urlsplit(base).path.rsplit("/", 1)[0] + "/" + path
    if SKIP.search(path):
        return None
    return path + (f"?{parts.query}" if parts.query else "")


def _shape(url: str) -> str:
    return re.sub(r"\d+", "N", urlsplit(url).path)


def crawl(client: Client, seeds: list[str]) -> tuple[list[str], list[dict], list[str]]:
    """Pages reached from the seeds, the forms on them and any page that answered 500."""
    seen, shapes, queue = set(), {}, deque(seeds)
    pages, forms, failures = [], [], []
    while queue and len(pages) < MAX_PAGES:
        url = queue.popleft()
        shape = _shape(url)
        if url in seen or shapes.get(shape, 0) >= PER_SHAPE:
            continue
        seen.add(url)
        shapes[shape] = shapes.get(shape, 0) + 1
        r = client.get(url)
        if r.status_code >= 500:
            failures.append(f"GET {url} -> {r.status_code}")
            continue
        if r.status_code != 200 or "html" not in r.get("Content-Type", ""):
            continue
        pages.append(url)
        parser = PageParser()
        parser.feed(r.content.decode("utf-8", errors="replace"))
        for link in parser.links:
            found = _local(link, url)
            if found:
                queue.append(found)
        for form in parser.forms:
            action = _local(form["action"], url) if form["action"] else url
            if action:
                forms.append({**form, "action": action, "page": url})
    return pages, forms, failures


def _distinct(forms: list[dict]) -> list[dict]:
    kept, keys = [], set()
    for form in forms:
        key = (form["method"], _shape(form["action"]), tuple(sorted(form["fields"])))
        if key not in keys:
            keys.add(key)
            kept.append(form)
    return kept


def _send(client: Client, form: dict, data: dict) -> tuple[int, str]:
    data = {k: v for k, v in data.items() if v is not None}
    if form["method"] == "post":
        r = client.post(form["action"], data)
    else:
        path = urlsplit(form["action"]).path
        r = client.get(path + "?" + urlencode(data))
    return r.status_code, r.get("Location", "")


def fuzz_forms(
    client: Client, forms: list[dict], part: int = 0, parts: int = 1
) -> tuple[int, list[str]]:
    """Every field of every form with every bad value; `part` of `parts`: every parts-th of
    those requests (a test each)."""
    sent, failures, count = 0, [], 0
    for form in _distinct(forms):
        fields = {k: v for k, v in form["fields"].items() if k != "csrfmiddlewaretoken"}
        trials = [(name, value) for name in fields for value in FUZZ]
        if form["method"] == "post":
            trials += [("next", value) for value in HOSTILE_NEXT]
        for name, value in trials:
            count += 1
            if count % parts != part:
                continue
            status, location = _send(client, form, {**fields, name: value})
            sent += 1
            where = f"{form['method'].upper()} {form['action']} {name}={value[:24]!r}"
            if status >= 500:
                failures.append(f"{where} -> {status} (form on {form['page']})")
            if "evil.example" in location:
                failures.append(f"{where} -> redirect to {location}")
    return sent, failures


def fuzz_queries(client: Client, pages: list[str]) -> tuple[int, list[str]]:
    """Every query parameter a link carries, replaced in turn by each fuzz value."""
    sent, failures, done = 0, [], set()
    for url in pages:
        parts = urlsplit(url)
        params = dict(parse_qsl(parts.query, keep_blank_values=True))
        for name in params:
            if (_shape(url), name) in done:
                continue
            done.add((_shape(url), name))
            for value in FUZZ:
                r = client.get(parts.path + "?" + urlencode({**params, name: value}))
                sent += 1
                if r.status_code >= 500:
                    failures.append(f"GET {parts.path} {name}={value[:24]!r} -> {r.status_code}")
    return sent, failures


# The forms and the pages' queries are fuzzed in PARTS tests, each every PARTS-th of them: one
# test of 160 s held a CI worker while the other had nothing left to do.
PARTS = 3


@pytest.mark.parametrize("part", range(PARTS))
def test_no_page_form_answers_500(director, part):
    evening = Evening(director, players=27).arrange().running()
    tournament = evening.tournament
    active = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).order_by("pk")
    )
    eliminations_record(
        actor=director,
        tournament_id=tournament.pk,
        eliminations=[(active[0].pk, None)],
        rng=random.Random(1),
    )
    penalty_give(
        actor=director,
        tournament_id=tournament.pk,
        entry_id=active[1].pk,
        kind="missed_hands",
        reason="Telefonált",
        hands=3,
    )
    client = Client(raise_request_exception=False)
    client.force_login(director)
    t = tournament.pk
    seeds = [
        "/",
        f"/tournaments/{t}/",
        f"/tournaments/{t}/desk/",
        f"/tournaments/{t}/settings/",
        "/tournaments/new/",
        "/structures/",
        "/players/",
        "/staff/",
        "/audit/",
    ]
    pages, forms, failures = crawl(client, seeds)
    assert len(pages) > 40, pages
    distinct = _distinct(forms)
    assert len(distinct) > 25, [f["action"] for f in distinct]
    sent_forms, form_failures = fuzz_forms(client, distinct, part, PARTS)
    sent_queries, query_failures = fuzz_queries(client, pages[part::PARTS])
    failures += form_failures + query_failures
    assert failures == [], "\n".join(failures[:40])
    assert sent_forms > 500 // PARTS and sent_queries > 20 // PARTS


def test_no_festival_page_form_answers_500(director, api, structure):
    """A festival's pages (issue 26): a main event, a flight counted on one table and one
    flight bagged, crawled from their consoles, every form fuzzed (the count sheet, the new
    flight, the end of day, the Day-2 draw, the public link) and the public page's query."""
    main = main_event(director, structure, festival_hall(director))
    pid = players(api, [f"Fuzz {i}" for i in range(12)])
    day1a, day1b = flight(api, main, "Day 1A", [1, 2]), flight(api, main, "Day 1B", [3])
    left = play_flight(api, day1a, list(pid.values())[:6], busts=1)
    play_flight(api, day1b, list(pid.values())[6:], busts=1)
    bag_flight(api, day1a, left)
    client = Client(raise_request_exception=False)
    client.force_login(director)
    seeds = [
        f"/tournaments/{main.pk}/",
        f"/tournaments/{day1a.pk}/",
        f"/tournaments/{day1b.pk}/",
        f"/tournaments/{day1b.pk}/tables/3/chip-counts/",
        f"/public/{public_token(main)}/?lang=hu",
    ]
    pages, forms, failures = crawl(client, seeds)
    # the festival's own forms and pages (the rest of a console is the test above's)
    festival = re.compile(r"chip-counts|flights|end-of-day|day2|public|bag-slips")
    forms = [f for f in forms if festival.search(f["action"])]
    actions = {_shape(f["action"]) for f in _distinct(forms)}
    assert "/tournaments/N/tables/N/chip-counts/" in actions, actions
    assert "/tournaments/N/flights/add/" in actions, actions
    sent_forms, form_failures = fuzz_forms(client, forms)
    _sent, query_failures = fuzz_queries(client, [p for p in pages if festival.search(p)])
    failures += form_failures + query_failures
    assert failures == [], "\n".join(failures[:40])
    assert sent_forms > 50
