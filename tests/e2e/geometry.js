({fixedHeight, skip, tolerance}) => {
  // The geometry check's measurement (tests/e2e/geometry.py), run in the page by Playwright.
  const problems = [];
  const W = window.innerWidth, H = window.innerHeight;
  const skipped = (el, what) => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const mark = e.getAttribute("data-geometry-skip");
      if (mark !== null && (mark === "" || mark === "all" || mark.split(" ").includes(what))) return true;
    }
    return skip.some((s) => el.closest(s));
  };
  // a skip link waits above the page until it has the keyboard's focus
  const offstage = (el) => el.closest(".skip-link:not(:focus)");
  const describe = (el) => {
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && parts.length < 3; e = e.parentElement) {
      let p = e.tagName.toLowerCase();
      if (e.id) { p += "#" + e.id; parts.unshift(p); break; }
      const cls = [...e.classList].slice(0, 2).join(".");
      if (cls) p += "." + cls;
      const field = e.getAttribute("data-field");
      if (field) p += `[data-field=${field}]`;
      parts.unshift(p);
    }
    const text = (el.innerText || el.value || el.getAttribute("aria-label") || "").trim().replace(/\s+/g, " ");
    return parts.join(" > ") + (text ? ` "${text.slice(0, 40)}"` : "");
  };
  const styleOf = (el) => getComputedStyle(el);
  const seen = (el) => {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      if (parseFloat(styleOf(e).opacity) < 0.05) return false;
    }
    return true;
  };
  const clips = (el) => {
    const s = styleOf(el);
    return s.overflowX !== "visible" || s.overflowY !== "visible" || s.clip !== "auto" ||
      (s.clipPath && s.clipPath !== "none");
  };
  // The part of `rect` a person can see: within every clipping ancestor (up to a fixed one).
  // `scrollers`: count boxes a person scrolls (overflow auto or scroll) as clipping too; what
  // they hide is out of sight, but not cut (it scrolls into view).
  const scrolls = (e) => ["auto", "scroll"].includes(styleOf(e).overflowY) || ["auto", "scroll"].includes(styleOf(e).overflowX);
  const visibleRect = (el, rect, scrollers = true, self = false) => {
    let r = { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
    for (let e = self ? el : el.parentElement; e && e !== document.body && e !== document.documentElement; e = e.parentElement) {
      // what a scroller hides scrolls into view: a box around the scroller (a card with
      // rounded corners) hides nothing more of it
      if (!scrollers && clips(e) && scrolls(e)) break;
      if (clips(e) && (scrollers || !scrolls(e))) {
        const c = e.getBoundingClientRect();
        r = { left: Math.max(r.left, c.left), top: Math.max(r.top, c.top),
              right: Math.min(r.right, c.right), bottom: Math.min(r.bottom, c.bottom) };
      }
      if (styleOf(e).position === "fixed") break;
    }
    return r;
  };
  // screen-reader-only text: drawn in a box of a pixel or less that clips it
  const srOnly = (el) => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const r = e.getBoundingClientRect();
      if ((r.width <= 1.5 || r.height <= 1.5) && clips(e)) return true;
    }
    return false;
  };
  const ownText = (el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("");
  const accentedCapital = /[ÁÉÍÓÖŐÚÜŰČĎĚŇŘŠŤŮŽÝÀÂÈÊÔ]/;
  const descender = /[gjpqy]/;
  const inkTolerance = 0.5;
  const area = (r) => Math.max(0, r.right - r.left) * Math.max(0, r.bottom - r.top);
  const union = (rects) => rects.reduce((u, r) => ({
    left: Math.min(u.left, r.left), top: Math.min(u.top, r.top),
    right: Math.max(u.right, r.right), bottom: Math.max(u.bottom, r.bottom) }),
    { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity });

  // A modal dialog makes the rest of the page inert: only the dialog is looked at.
  const modal = document.querySelector("dialog:modal");
  // Runs of text (an element's own text nodes) and controls, with the boxes drawn.
  const items = [];
  const controls = "button, input:not([type=hidden]), select, textarea, a.btn, [role=button]";
  for (const el of document.body.querySelectorAll("*")) {
    if (["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "svg", "OPTION"].includes(el.tagName)) continue;
    if (el.closest("svg, select, datalist")) continue;
    if (modal && !modal.contains(el)) continue;
    if (!seen(el) || skipped(el, "all") || offstage(el) || srOnly(el)) continue;
    const isControl = el.matches(controls);
    let rects = [];
    if (isControl) {
      const r = el.getBoundingClientRect();
      if (r.width > 1 && r.height > 1) rects = [r];
    } else {
      for (const node of el.childNodes) {
        if (node.nodeType !== 3 || !node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) if (r.width > 1 && r.height > 1) rects.push(r);
      }
    }
    if (!rects.length) continue;
    const box = union(rects);
    if (box.right - box.left <= 1.5 || box.bottom - box.top <= 1.5) continue; // screen-reader only
    const visible = rects.map((r) => visibleRect(el, r)).filter((r) => area(r) > 1);
    if (!visible.length) continue; // hidden by a clipping ancestor: another page of a list
    items.push({ el, rects: visible, control: isControl });
    // a run of text partly cut by a clipping ancestor: any width lost, or less height left
    // than the font's em (a line box may be tighter than the font's ascent and descent)
    if (!isControl && !skipped(el, "clip")) {
      const em = parseFloat(styleOf(el).fontSize);
      const text = ownText(el);
      // the marks over a capital (Ő, Á, Ř) reach the top of the font's box, a tail (g, y, p)
      // its bottom: a line-height tighter than the font cuts them by its own overflow
      const tall = accentedCapital.test(text), tailed = descender.test(text);
      for (const r of rects) {
        const v = visibleRect(el, r, false, true);
        const w = Math.max(0, v.right - v.left), h = Math.max(0, v.bottom - v.top);
        if (w * h <= 1) continue; // a line wholly hidden: another page
        const cut = r.width - w > tolerance || h < Math.min(r.height, em) - tolerance;
        const top = tall && v.top - r.top > inkTolerance;
        const bottom = tailed && r.bottom - v.bottom > inkTolerance;
        if (cut || top || bottom) {
          const why = cut ? "" : top ? " (the accents' tops)" : " (the tails under the line)";
          problems.push(`clipped: ${describe(el)} shows ${Math.round(w)}x${Math.round(h)} of ${Math.round(r.width)}x${Math.round(r.height)}px of its text${why}`);
          break;
        }
      }
    }
  }

  // overlap: two runs of text, or a run and a control, or two controls, drawn over each other
  // a bar fixed to the window, or stuck to its edge while the page scrolls (a form's sticky
  // Save bar), floats over the page
  const fixedAncestor = (el) => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const pos = styleOf(e).position;
      if (pos === "fixed" || (pos === "sticky" && !["TH", "TD", "THEAD", "TR"].includes(e.tagName))) return e;
    }
    return null;
  };
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i], b = items[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      if (skipped(a.el, "overlap") || skipped(b.el, "overlap")) continue;
      let hit = false;
      for (const ra of a.rects) {
        for (const rb of b.rects) {
          const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
          const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
          if (w > tolerance && h > tolerance) hit = true;
        }
      }
      if (!hit) continue;
      const fa = fixedAncestor(a.el), fb = fixedAncestor(b.el);
      if (fa !== fb && !(fa || fb).closest(".toast, .toasts")) {
        // A bar fixed to the window over the page: a fault only if the page cannot be scrolled
        // to show what is under it (toasts are judged where they are).
        const bar = (fa || fb).getBoundingClientRect();
        const under = union((fa ? b : a).rects);
        const maxScroll = document.documentElement.scrollHeight - H;
        const y = window.scrollY;
        const clearBelow = under.bottom + y - bar.top <= maxScroll + 1;  // scroll it above the bar
        const clearAbove = under.top + y - bar.bottom >= -1;             // or back under a top bar
        if (clearBelow || clearAbove) continue;
      }
      const layer = fa !== fb ? " (one floats over the other)" : "";
      problems.push(`overlap: ${describe(a.el)} and ${describe(b.el)}${layer}`);
    }
  }

  // viewport
  const doc = document.documentElement;
  if (doc.scrollWidth > W + 1) {
    // name the boxes that widen it: the outermost ones reaching past the window's edge
    const wide = [...document.body.querySelectorAll("*")].filter((el) => {
      if (!seen(el) || offstage(el)) return false;
      const box = el.getBoundingClientRect();
      // its content too: a button's words running out of it
      const r = { left: box.left, top: box.top, bottom: box.bottom,
                  right: Math.max(box.right, box.left + (clips(el) ? 0 : el.scrollWidth)) };
      const p = el.parentElement && el.parentElement.getBoundingClientRect();
      return r.right > W + 1 && box.width > 0 && (!p || p.right <= W + 1) &&
        visibleRect(el, r).right > W + 1;  // not what a scroller (the top bar's links) holds
    }).slice(0, 3).map(describe).join("; ");
    problems.push(`viewport: the page is ${doc.scrollWidth}px wide in a ${W}px window${wide ? " (" + wide + ")" : ""}`);
  }
  if (fixedHeight && doc.scrollHeight > H + 1) problems.push(`viewport: the page is ${doc.scrollHeight}px high in a ${H}px window`);
  for (const { el, rects } of items) {
    if (skipped(el, "viewport")) continue;
    const u = union(rects);
    if (u.left < -1 || u.right > W + 1) problems.push(`viewport: ${describe(el)} leaves the window sideways (${Math.round(u.left)}..${Math.round(u.right)} of ${W})`);
    else if (fixedHeight && (u.top < -1 || u.bottom > H + 1)) problems.push(`viewport: ${describe(el)} leaves the window (${Math.round(u.top)}..${Math.round(u.bottom)} of ${H})`);
  }

  // a button's words running out of it ("Undo the deal" over the amounts beside it): a .btn
  // draws its text over whatever is next to it
  for (const el of document.body.querySelectorAll(".btn")) {
    if (!seen(el) || skipped(el, "clip") || clips(el) || srOnly(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || !el.innerText || !el.innerText.trim()) continue;
    if (el.scrollWidth > el.clientWidth + tolerance) {
      problems.push(`clipped: ${describe(el)}: its words are ${el.scrollWidth}px wide in a ${el.clientWidth}px button`);
    }
  }

  // clipped: a box that hides part of its text (overflow hidden, an ellipsis)
  for (const el of document.body.querySelectorAll("*")) {
    if (!clips(el) || !seen(el) || skipped(el, "clip") || srOnly(el) || el.matches("select, textarea, input")) continue;
    if (!el.innerText || !el.innerText.trim()) continue;
    const s = styleOf(el);
    const scrollsX = s.overflowX === "auto" || s.overflowX === "scroll";
    const scrollsY = s.overflowY === "auto" || s.overflowY === "scroll";
    // an ellipsis (or a clamp's) shows the moment a pixel is over: no tolerance
    const marks = s.textOverflow === "ellipsis" || (s.webkitLineClamp && s.webkitLineClamp !== "none");
    const slack = marks ? 0 : tolerance;
    if (!scrollsX && el.scrollWidth > el.clientWidth + slack) problems.push(`clipped: ${describe(el)} is ${el.scrollWidth}px wide in ${el.clientWidth}px`);
    else if (!scrollsY && el.scrollHeight > el.clientHeight + slack) problems.push(`clipped: ${describe(el)} is ${el.scrollHeight}px high in ${el.clientHeight}px`);
  }
  // a main action (data-main-action: the home page's Desk and Console, the menu's links, a
  // form's submit) a person must find without scrolling: wholly in the first screen, not
  // hidden by a scroller (the top bar's links) nor below the fold
  // (data-main-action="row": a list's row, in view sideways wherever the list puts it)
  for (const el of document.querySelectorAll("[data-main-action], .topbar-nav .nav-link")) {
    if (!seen(el) || skipped(el, "all") || (modal && !modal.contains(el))) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;
    const v = visibleRect(el, r);
    // where it is when the page opens: a bar stuck to the window's top is there however far
    // the page has been scrolled since
    const stuck = fixedAncestor(el) ? 0 : window.scrollY;
    const top = r.top + stuck, bottom = r.bottom + stuck;
    const sideways = el.getAttribute("data-main-action") === "row";
    const hidden = sideways ? (v.right - v.left) < r.width - tolerance : area(v) < area(r) - tolerance * Math.max(r.width, r.height);
    if (hidden || r.left < -1 || r.right > W + 1 || (!sideways && (top < -1 || bottom > H + 1))) {
      problems.push(`out of view: ${describe(el)}, a main action, is not wholly in the first screen (${Math.round(r.left)},${Math.round(top)} to ${Math.round(r.right)},${Math.round(bottom)} in ${W}x${H})`);
    }
  }
  return [...new Set(problems)];
}
