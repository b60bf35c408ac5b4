"""The geometry check itself (tests/e2e/geometry.py) finds what a person sees wrong (issue 32):
a page made to have each fault (a clipped accent, a descender cut, an ellipsis one pixel over,
a button scrolled out of a top bar, a main action below the fold, text over text) is reported;
the same page without the fault is not."""

from __future__ import annotations

import pytest

from tests.e2e.geometry import geometry_problems

FONT = "font-family: 'DejaVu Sans', sans-serif;"


def problems_of(page, body: str, size=(800, 600)) -> list[str]:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.set_content(f'<!doctype html><html><body style="margin:0;{FONT}">{body}</body></html>')
    page.evaluate("document.fonts.ready")
    return geometry_problems(page)


@pytest.mark.parametrize(
    ("fault", "fixed", "found"),
    [
        # the console's seat names once: a tight line-height cutting Ő's double acute
        (
            '<div style="font-size:40px;line-height:1;overflow:hidden">Őri Zsolt</div>',
            '<div style="font-size:40px;line-height:1.3;overflow:hidden">Őri Zsolt</div>',
            "the accents' tops",
        ),
        (
            '<div style="font-size:40px;line-height:1;overflow:hidden">gyapjú</div>',
            '<div style="font-size:40px;line-height:1.3;overflow:hidden">gyapjú</div>',
            "the tails under the line",
        ),
        # the TV's average stack "40,0…": an ellipsis at the first pixel over
        (
            '<div style="width:60px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;'
            'font-size:20px">40,000</div>',
            '<div style="width:120px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;'
            'font-size:20px">40,000</div>',
            "clipped:",
        ),
        # the home page's Desk and Console in a horizontal scroller, off screen
        (
            '<nav style="display:flex;overflow-x:auto;width:300px"><a style="flex:none;'
            'width:250px">Tournaments</a><a data-main-action style="flex:none;width:120px">'
            "Console</a></nav>",
            '<nav style="display:flex;overflow-x:auto;width:400px"><a style="flex:none;'
            'width:250px">Tournaments</a><a data-main-action style="flex:none;width:120px">'
            "Console</a></nav>",
            "out of view:",
        ),
        # the dealer's clock call opened below the fold
        (
            '<div style="height:900px">Table 4</div><button data-main-action>Call the clock'
            "</button>",
            '<div style="height:300px">Table 4</div><button data-main-action>Call the clock'
            "</button>",
            "out of view:",
        ),
        # the console's "Undo the deal" running over the amounts beside it
        (
            '<div style="display:flex;width:220px"><span>90 223</span><button class="btn" '
            'style="width:40px;white-space:nowrap">Undo the deal</button></div>',
            '<div style="display:flex;width:220px"><span>90 223</span><button class="btn" '
            'style="white-space:nowrap">Undo the deal</button></div>',
            "its words are",
        ),
        (
            '<div style="position:relative;height:40px"><span style="position:absolute;left:0">'
            'Ősz-Würtzburger Évike Ágnes</span><span style="position:absolute;left:60px">'
            "1,000,000</span></div>",
            '<div style="display:flex;gap:12px"><span>Ősz-Würtzburger Évike Ágnes</span>'
            "<span>1,000,000</span></div>",
            "overlap:",
        ),
    ],
    ids=["accent", "descender", "ellipsis", "scroller", "below-the-fold", "button", "overlap"],
)
def test_the_check_finds_each_fault_and_passes_its_fix(page, fault, fixed, found):
    problems = problems_of(page, fault)
    assert any(found in p for p in problems), problems
    assert problems_of(page, fixed) == []


def test_a_longest_word_running_out_of_a_button_is_found(page):
    word = "Megszentségteleníthetetlenségeskedéseitekért"  # the longest Hungarian word
    body = f'<div style="width:200px;overflow:hidden"><p style="margin:0">{word}</p></div>'
    assert any("clipped:" in p for p in problems_of(page, body))
    wraps = "margin:0;overflow-wrap:anywhere"
    body = f'<div style="width:200px;overflow:hidden"><p style="{wraps}">{word}</p></div>'
    assert problems_of(page, body) == []
