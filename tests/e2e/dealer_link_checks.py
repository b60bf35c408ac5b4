"""Checks that the dealer link's browser tests share."""

# Each word of a seat's name whose characters lie on more than one line (split mid-word).
SPLIT_WORDS_IN = """(selector) => {
  const split = [];
  for (const name of document.querySelectorAll(selector)) {
    const text = name.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    const re = /[^\\s-]+/g;
    let m;
    while ((m = re.exec(text.data))) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) split.push(m[0]);
    }
  }
  return split;
}"""

# The dealer page's seat names (SPLIT_WORDS_IN takes any names' selector, e.g. the color-up's).
SPLIT_WORDS = f"() => ({SPLIT_WORDS_IN})('.dl-seat-name')"
