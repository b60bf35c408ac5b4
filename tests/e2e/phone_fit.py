"""On a floor person's phone (390x844, 360x740) a staff page fits its window: nothing scrolls
sideways (not the page, not a table's box), the page is no wider than the window, and the
geometry check passes (tests/e2e/geometry.py). A wide table reads as one card per row there
(.data-table.stacks). Screenshots: test-artifacts/screenshots/<name>.png."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e.geometry import assert_geometry

PHONES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}

# Boxes that scroll sideways although a person would have to swipe to read them: any element
# whose content is wider than its box and that lets it scroll (overflow-x auto or scroll).
SIDEWAYS = """() => [...document.querySelectorAll("body *")].filter((el) => {
  const s = getComputedStyle(el);
  return ["auto", "scroll"].includes(s.overflowX) && el.scrollWidth > el.clientWidth + 1 &&
    el.checkVisibility();
}).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} ` +
  `${el.scrollWidth}px in ${el.clientWidth}px`)"""


def phone_context(browser, size: str):
    context = browser.new_context(
        viewport=PHONES[size], is_mobile=True, has_touch=True, device_scale_factor=2
    )
    context.set_default_timeout(10_000)
    return context


def fit_problems(page: Page, name: str, size: str) -> list[str]:
    """What does not fit the phone's window on `page` now, in words ([] when all fits)."""
    page.evaluate("document.fonts.ready")
    problems = []
    sideways = page.evaluate(SIDEWAYS)
    if sideways:
        problems.append(f"{name}: scrolls sideways: {sideways}")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONES[size]["width"]:
        problems.append(f"{name}: the page is {width}px wide in {PHONES[size]['width']}px")
    try:
        assert_geometry(page, name, full_page=True)
    except AssertionError as exc:
        problems.append(str(exc))
    return problems


# Each visible button or link of the rows' actions, with its box: on the window, 44 px tall.
ROW_ACTIONS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.checkVisibility())
  .map((el) => { const r = el.getBoundingClientRect();
    return {text: el.innerText, left: r.left, right: r.right, height: r.height}; })"""


def action_problems(page: Page, name: str, selector: str, size: str) -> list[str]:
    """The rows' buttons (`selector`) are whole on the window and at least 44 px tall."""
    width = PHONES[size]["width"]
    boxes = page.evaluate(ROW_ACTIONS, selector)
    if not boxes:
        return [f"{name}: no row's button ({selector}) is shown"]
    bad = [b for b in boxes if b["left"] < 0 or b["right"] > width or b["height"] < 44]
    if bad:
        return [f"{name}: {len(bad)} of {len(boxes)} rows' buttons off the window or under "
                f"44 px, the first {bad[0]}"]  # fmt: skip
    return []


def each_language(browser, sign_in, url: str, size: str, languages, check, prefix: str):
    """Open `url` on the phone `size`, signed in by `sign_in(page)`, in each of `languages`;
    `check(page, name, lang)` lists what is wrong (name: `prefix`-size-lang, the screenshot's).
    All the problems found, in words."""
    context = phone_context(browser, size)
    page = context.new_page()
    problems = []
    try:
        sign_in(page)
        for lang in languages:
            page.context.add_cookies([{"name": "django_language", "value": lang, "url": url}])
            page.goto(url)
            problems += check(page, f"{prefix}-{size}-{lang}", lang)
    finally:
        context.close()
    return problems
