"""The geometry check: what a person sees on a page is whole and apart (issue 13).

`geometry_problems(page)` measures the page in the browser and lists, in words:
- **overlap**: two visible runs of text (or a text and a control, or two controls) drawn over
  each other, by their text boxes (a Range over each element's own text, not its block box),
  so a toast over a button or a strip over the countdown's digits is found;
- **viewport**: an element that leaves the window horizontally (on every page) or vertically
  (`fixed_height=True`: the lobby TV, which never scrolls), or a page wider than its window;
- **clipped**: text cut by a box: an element with `overflow` other than visible whose content
  is larger than its box (scrollWidth > clientWidth, scrollHeight > clientHeight; an ellipsis
  "Varga Fere…" or a line clamp is such a case, with no tolerance: it shows at the first pixel
  over), or a text run partly outside a clipping box (its own or an ancestor's); a run with an
  accented capital (Ő, Á, Ř) must show the top of its font box, where the accents are, and one
  with a descender (g, y, p) its bottom: a line-height tighter than the font cuts them;
- **out of view**: a main action (`data-main-action`, and the top bar's menu links) not wholly
  in the first screen, or hidden by a scroller (the home page's Desk and Console scrolled out
  of the list's box); `data-main-action="row"` (a list's rows): in view sideways only.

tests/e2e/test_geometry_check.py shows it finds each of these on a page made to have it.

What a person does not see is not measured: `display: none`, `visibility: hidden`, zero
opacity, screen-reader-only text (a box of a pixel or less), a skip link waiting above the page for
the keyboard's focus, and what a clipping ancestor hides
entirely (the other pages of a paged list). An element that scrolls on purpose (the message
ticker's marquee) is marked `data-geometry-skip` ("clip", "overlap" or "all"); a test may pass
more CSS selectors to skip. A box a person scrolls (overflow auto or scroll: a wide table on a
phone, the top bar's links) cuts nothing: what it hides scrolls into view. A modal dialog makes
the rest of the page inert: only the dialog is measured. A bar fixed over the page (the
dealer's buttons) or stuck to the window's edge (a form's Save bar) covers only what the page
cannot be scrolled to show; a box around a scroller hides nothing the scroller would show.

`assert_geometry(page, name, ...)` saves test-artifacts/screenshots/<name>.png and fails with
the problems listed.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts" / "screenshots"

_MEASURE = (Path(__file__).resolve().parent / "geometry.js").read_text()


def geometry_problems(
    page: Page, fixed_height: bool = False, skip: tuple[str, ...] = (), tolerance: float = 2
) -> list[str]:
    """What is overlapping, outside the window or cut on `page` now, in words ([] when none)."""
    return page.evaluate(
        _MEASURE, {"fixedHeight": fixed_height, "skip": list(skip), "tolerance": tolerance}
    )


def assert_geometry(
    page: Page,
    name: str,
    fixed_height: bool = False,
    skip: tuple[str, ...] = (),
    full_page: bool = False,
    picture: str = "png",
) -> list[str]:
    """Save the screenshot `name`.png (`picture="jpeg"`: `name`.jpg, for the matrix's hundreds:
    Chromium writes a JPEG in about 60 % of a PNG's time), then fail listing every geometry
    problem on `page`."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if picture == "jpeg":
        shot = {"path": str(ARTIFACTS / f"{name}.jpg"), "type": "jpeg", "quality": 80}
    else:
        shot = {"path": str(ARTIFACTS / f"{name}.png")}
    page.screenshot(**shot, full_page=full_page, animations="disabled")
    problems = geometry_problems(page, fixed_height=fixed_height, skip=skip)
    assert not problems, f"{name}:\n  " + "\n  ".join(problems)
    return problems
