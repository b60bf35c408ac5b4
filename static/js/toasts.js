/*!
 * toasts.js: the toasts every page shows (loaded after tourney.js; issue 13).
 *
 *   Tourney.toast(message, {kind, undoUrl, undoLabel, onUndo, link: {href, label}, timeout})
 *       kind: "ok" | "warn" | "bad" | "info"; returns {element, dismiss()}
 *   Tourney.toasts.enhance()   wire server-rendered toasts (Django messages) in #toasts
 *   Tourney.toasts.place()     choose where the toasts sit now (runs by itself)
 *
 * Toasts leave by themselves (6 s, 12 s with an undo or a link, 15 s for an error; a pointer or
 * the keyboard on one holds it) and at most three show at once: a new one retires the oldest,
 * so the newest one, with its Undo, is always there.
 *
 * They never cover a control: the stack goes to the corner of the window (bottom right,
 * bottom left, top right, top left, under the top bar) that covers no button, link or field on
 * the screen now, nor the page's title (h1), nor anything marked [data-toast-avoid] (the
 * dealer's Button/SB/BB); it sits
 * above a bar marked [data-toast-above] (the dealer's "Hand finished"). It moves again when the
 * page scrolls or resizes. Where every corner would cover something, only the newest toast
 * shows (.is-compact) in the corner where it covers least; on a phone the page then moves down
 * to make room for it under the top bar (--toasts-room).
 */
(function (window, document) {
  "use strict";

  var Tourney = (window.Tourney = window.Tourney || {});
  var MAX_SHOWN = 3;
  var CORNERS = ["bottom-right", "bottom-left", "top-right", "top-left"];
  // and the page's title (on a busy desk the stack sat over "Registration desk")
  var CONTROLS = "button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [data-toast-avoid], h1, .page-title";

  function timeoutFor(kind, hasAction) {
    return kind === "bad" ? 15000 : hasAction ? 12000 : 6000;
  }

  /** Retire the oldest toasts beyond what may show, then place the stack. */
  function limit() {
    var shown = Array.prototype.filter.call(toastContainer().children, function (el) {
      return el.classList.contains("toast") && !el.classList.contains("is-leaving");
    });
    shown.slice(0, Math.max(0, shown.length - MAX_SHOWN)).forEach(function (el) {
      if (el._dismiss) el._dismiss();
      else if (el.parentNode) el.parentNode.removeChild(el);
    });
    place();
  }

  function overlaps(a, b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }

  /** Put the stack in the first corner that covers nothing a person would tap or read. */
  function place() {
    var box = document.getElementById("toasts");
    if (!box) return;
    var bar = document.querySelector("[data-toast-above]");
    var lift = bar && bar.getClientRects().length ? Math.max(0, window.innerHeight - bar.getBoundingClientRect().top) : 0;
    box.style.setProperty("--toasts-lift", lift + "px");
    // under the top bar as it is drawn now (its links wrap to a second row on a narrow screen)
    var topbar = document.querySelector(".topbar");
    var top = topbar ? Math.max(0, topbar.getBoundingClientRect().bottom) : 0;
    box.style.setProperty("--toasts-top", top + "px");
    // the room made for a toast (makeRoom) is measured again each time, from none
    document.documentElement.style.removeProperty("--toasts-room");
    if (!box.querySelector(".toast")) return;
    var targets = Array.prototype.filter.call(document.querySelectorAll(CONTROLS), function (el) {
      if (box.contains(el) || (bar && bar.contains(el)) || el.closest("dialog:not([open])")) return false;
      var r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight;
    }).map(function (el) { return el.getBoundingClientRect(); });
    // The whole stack where it covers nothing; else the newest toast alone (with its Undo).
    var best = null;
    [false, true].forEach(function (compact) {
      CORNERS.forEach(function (corner) {
        if (best && best.cost === 0) return;
        box.classList.toggle("is-compact", compact);
        box.setAttribute("data-corner", corner);
        var rect = box.getBoundingClientRect();
        var cost = targets.filter(function (r) { return overlaps(rect, r); }).length;
        if (!best || cost < best.cost) best = { corner: corner, cost: cost, compact: compact };
      });
    });
    box.classList.toggle("is-compact", best.compact);
    box.setAttribute("data-corner", best.corner);
    if (best.cost > 0 && window.innerWidth < 640) makeRoom(box);
  }

  /** On a phone where every corner covers something (a list of cards, each with buttons, fills
   * the window: the player links page), the page moves down under the newest toast while it
   * shows, so it covers neither the title nor a button. */
  function makeRoom(box) {
    box.classList.add("is-compact");
    box.setAttribute("data-corner", "top-left");
    var main = document.getElementById("main");
    var gap = box.getBoundingClientRect().bottom - (main ? main.getBoundingClientRect().top : 0);
    document.documentElement.style.setProperty("--toasts-room", Math.max(0, Math.ceil(gap)) + "px");
  }

  var pending = false;
  function placeSoon() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false;
      place();
    });
  }
  window.addEventListener("scroll", placeSoon, { passive: true });
  window.addEventListener("resize", placeSoon);
  document.addEventListener("htmx:afterSettle", placeSoon);

  var KIND_ALIASES = { success: "ok", error: "bad", warning: "warn", debug: "info", danger: "bad" };
  var ICONS = {
    ok: '<path d="M5 10.5l3.2 3.2L15 7" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>',
    warn: '<path d="M10 2.5L18.5 17h-17z" fill="currentColor"/><path d="M10 8v4.2M10 14.6v.1" stroke="#1b222c" stroke-width="1.9" stroke-linecap="round"/>',
    bad: '<rect x="3" y="3" width="14" height="14" rx="2" fill="currentColor"/><path d="M7 7l6 6M13 7l-6 6" stroke="#1b222c" stroke-width="2" stroke-linecap="round"/>',
    info: '<circle cx="10" cy="10" r="8" fill="currentColor"/><path d="M10 9v5M10 6.2v.1" stroke="#1b222c" stroke-width="2" stroke-linecap="round"/>',
  };

  function toastContainer() {
    var box = document.getElementById("toasts");
    if (!box) {
      box = document.createElement("div");
      box.id = "toasts";
      box.className = "toasts";
      box.setAttribute("aria-live", "polite");
      document.body.appendChild(box);
    }
    return box;
  }

  function normKind(kind) {
    kind = (kind || "info").toLowerCase();
    return KIND_ALIASES[kind] || (ICONS[kind] ? kind : "info");
  }

  function iconSvg(kind) {
    return '<svg class="toast-icon" viewBox="0 0 20 20" aria-hidden="true">' + ICONS[kind] + "</svg>";
  }

  /** Give a toast element its behaviour: close button, undo button, auto-dismiss. */
  function wireToast(el, opts) {
    opts = opts || {};
    var timer = null;
    var remaining = opts.timeout;
    var started = 0;

    function dismiss() {
      if (!el.isConnected || el.classList.contains("is-leaving")) return;
      window.clearTimeout(timer);
      el.classList.add("is-leaving");
      window.setTimeout(function () {
        if (el.parentNode) el.parentNode.removeChild(el);
        place();
      }, 180);
    }
    el._dismiss = dismiss;
    function arm() {
      if (!remaining || remaining <= 0) return;
      started = Date.now();
      timer = window.setTimeout(dismiss, remaining);
    }
    function hold() {
      if (!timer) return;
      window.clearTimeout(timer);
      timer = null;
      remaining = Math.max(1500, remaining - (Date.now() - started));
    }
    el.addEventListener("mouseenter", hold);
    el.addEventListener("mouseleave", arm);
    el.addEventListener("focusin", hold);
    el.addEventListener("focusout", arm);

    var close = el.querySelector(".toast-close");
    if (close) close.addEventListener("click", dismiss);

    var undo = el.querySelector(".toast-undo");
    if (undo) {
      undo.addEventListener("click", function () {
        var url = undo.getAttribute("data-undo-url");
        undo.disabled = true;
        var done = function (data) {
          dismiss();
          Tourney.toast(Tourney.i18n.undone, { kind: "ok" });
          document.body.dispatchEvent(
            new CustomEvent("tourney:undone", { bubbles: true, detail: { url: url, data: data } })
          );
        };
        if (opts.onUndo) {
          Promise.resolve(opts.onUndo()).then(done, function (err) {
            undo.disabled = false;
            Tourney.toast((err && err.detail) || Tourney.i18n.undoFailed, { kind: "bad" });
          });
          return;
        }
        Tourney.fetchJSON(url, { method: "POST" }).then(done, function (err) {
          undo.disabled = false;
          Tourney.toast(Tourney.i18n.undoFailed + ": " + (err.detail || err.message), { kind: "bad" });
        });
      });
    }
    arm();
    return dismiss;
  }

  /**
   * Show a toast. Options: kind ("ok" | "warn" | "bad" | "info", Django's "success" / "error" /
   * "warning" also work), undoUrl (adds an Undo button that POSTs there), onUndo (a function
   * returning a promise, instead of undoUrl), undoLabel, link ({href, label}: a link to where
   * the next step is done, e.g. the desk's rebuy after a bust-out), timeout (ms; default 6 s,
   * 12 s with undo or a link, 15 s for "bad"; 0 keeps it). Returns {element, dismiss}.
   */
  Tourney.toast = function (message, opts) {
    opts = opts || {};
    var kind = normKind(opts.kind);
    var hasUndo = !!(opts.undoUrl || opts.onUndo);
    var hasLink = !!(opts.link && opts.link.href);
    var timeout = opts.timeout !== undefined ? opts.timeout : timeoutFor(kind, hasUndo || hasLink);

    var el = document.createElement("div");
    el.className = "toast " + kind;
    if (kind === "bad") el.setAttribute("role", "alert");
    el.innerHTML = iconSvg(kind);
    var msg = document.createElement("div");
    msg.className = "toast-message";
    msg.textContent = message;
    el.appendChild(msg);
    var actions = document.createElement("div");
    actions.className = "toast-actions";
    if (hasLink) {
      var link = document.createElement("a");
      link.className = "toast-link";
      link.href = opts.link.href;
      link.textContent = opts.link.label || opts.link.href;
      actions.appendChild(link);
    }
    if (hasUndo) {
      var undo = document.createElement("button");
      undo.type = "button";
      undo.className = "toast-undo";
      undo.textContent = opts.undoLabel || Tourney.i18n.undo;
      if (opts.undoUrl) undo.setAttribute("data-undo-url", opts.undoUrl);
      actions.appendChild(undo);
    }
    var close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.setAttribute("aria-label", Tourney.i18n.dismiss);
    close.innerHTML = "&times;";
    actions.appendChild(close);
    el.appendChild(actions);

    toastContainer().appendChild(el);
    var dismiss = wireToast(el, { timeout: timeout, onUndo: opts.onUndo });
    limit();
    return { element: el, dismiss: dismiss };
  };

  // htmx: a response header `HX-Trigger: {"tourney:toast": {"message": "...", "kind": "ok", "undoUrl": "..."}}`
  document.addEventListener("tourney:toast", function (e) {
    var d = e.detail || {};
    if (typeof d === "string") d = { message: d };
    if (d.value && typeof d.value === "string") d.message = d.value; // htmx wraps bare strings
    if (d.message) Tourney.toast(d.message, d);
  });

  /** Server-rendered toasts (Django messages) in #toasts: add icons, undo buttons and timers. */
  function enhanceServerToasts() {
    var nodes = document.querySelectorAll("#toasts .toast:not([data-wired])");
    Array.prototype.forEach.call(nodes, function (el) {
      el.setAttribute("data-wired", "1");
      var kind = normKind(el.getAttribute("data-kind"));
      if (!el.querySelector(".toast-icon")) el.insertAdjacentHTML("afterbegin", iconSvg(kind));
      var tags = (el.getAttribute("data-tags") || "").split(/\s+/);
      var actions = el.querySelector(".toast-actions");
      tags.forEach(function (tag) {
        if (tag.indexOf("undo:") === 0 && actions && !actions.querySelector(".toast-undo")) {
          var undo = document.createElement("button");
          undo.type = "button";
          undo.className = "toast-undo";
          undo.textContent = Tourney.i18n.undo;
          undo.setAttribute("data-undo-url", tag.substring(5));
          actions.insertBefore(undo, actions.firstChild);
        }
      });
      var hasUndo = !!el.querySelector(".toast-undo");
      wireToast(el, { timeout: timeoutFor(kind, hasUndo) });
      limit();
    });
  }


  Tourney.toasts = { enhance: enhanceServerToasts, place: place };
})(window, document);
