/*!
 * tourney.js: the small shared script every Tourney page loads (plain script, no modules, no
 * build step). It defines one global, `window.Tourney`:
 *
 *   Tourney.csrfToken()                      current CSRF token (cookie "csrftoken", else <meta name="csrf-token">)
 *   Tourney.fetchJSON(url, {method, body, headers, signal})
 *                                            JSON in, JSON out, CSRF header set; rejects with an Error
 *                                            carrying .code, .detail, .status (and .data) on {code, detail}
 *                                            error bodies, .code = "network" when the request never arrived
 *   Tourney.shortcuts({key: handler})        keyboard shortcuts ("Space", "/", "n", "Escape", "ctrl+k");
 *                                            ignored while typing in a field, except Escape; returns unbind()
 *   Tourney.toast(message, {...})            static/js/toasts.js (loaded after this file)
 *   Tourney.formatNumber(n, intlOptions)     Intl.NumberFormat in the page's <html lang> ("40 000" in hu)
 *   Tourney.serverClock                      {now(), offset, rtt, synced, sync(opts), start(opts), stop()}
 *   Tourney.searchList(input, results, {onChoose})
 *                                            arrow keys / Enter over a search-as-you-type result list
 *   Tourney.setOnline(bool), Tourney.isOnline()
 *                                            the offline indicator (body.is-offline, #offline-banner)
 *
 * Wired automatically on every page:
 *   - htmx requests carry X-CSRFToken (htmx:configRequest);
 *   - server responses may ask for a toast with an `HX-Trigger: {"tourney:toast": {...}}` header;
 *   - Django messages rendered in #toasts become dismissable, auto-hiding toasts; a message whose
 *     extra_tags contain "undo:<url>" gets an Undo button;
 *   - inputs with data-search-results="#id" get keyboard navigation over that result list;
 *   - forms/selects with data-autosubmit submit on change; [data-print] buttons print;
 *   - <details class="user-menu"> closes on Escape and outside clicks.
 *
 * Undo contract: the Undo button POSTs (JSON, CSRF) to undoUrl. On success it shows "Undone" and
 * fires "tourney:undone" on <body> (detail: {url, data}), so htmx parts can refresh with
 * hx-trigger="tourney:undone from:body". On failure it shows the server's `detail`.
 */
(function (window, document) {
  "use strict";
  // Read in the head, before the page is drawn: styles that need the script (the phone's
  // folded menu) apply from the first paint.
  document.documentElement.classList.add("js");

  var Tourney = window.Tourney || {};
  window.Tourney = Tourney;

  /* Strings the script shows. Pages may override them with translated text, e.g.
     <script>Tourney.i18n = {undo: "{% translate 'Undo' %}", ...}</script> after this file;
     base.html fills them from data-i18n-* attributes on <body>. */
  Tourney.i18n = Object.assign(
    {
      undo: "Undo",
      undone: "Undone",
      dismiss: "Dismiss",
      undoFailed: "Could not undo",
      networkError: "No connection to the server",
    },
    Tourney.i18n || {}
  );

  function onReady(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
    else fn();
  }

  /* ------------------------------------------------------------ CSRF */

  function readCookie(name) {
    var parts = document.cookie ? document.cookie.split(";") : [];
    for (var i = 0; i < parts.length; i++) {
      var c = parts[i].trim();
      if (c.substring(0, name.length + 1) === name + "=") {
        return decodeURIComponent(c.substring(name.length + 1));
      }
    }
    return null;
  }

  /** The CSRF token: the "csrftoken" cookie, else <meta name="csrf-token" content="...">. */
  Tourney.csrfToken = function () {
    var token = readCookie("csrftoken");
    if (token) return token;
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  };

  document.addEventListener("htmx:configRequest", function (evt) {
    var token = Tourney.csrfToken();
    if (token) evt.detail.headers["X-CSRFToken"] = token;
  });

  /* ------------------------------------------------------------ fetchJSON */

  /**
   * Send JSON, receive JSON. Resolves with the parsed body (null for 204 / empty bodies).
   * Rejects with an Error whose .code and .detail come from the `{code, detail}` error body
   * (falling back to "http_<status>" and the status text), plus .status and .data.
   * A request that never reached the server rejects with .code = "network".
   */
  Tourney.fetchJSON = function (url, options) {
    options = options || {};
    var method = (options.method || (options.body !== undefined ? "POST" : "GET")).toUpperCase();
    var headers = Object.assign({ Accept: "application/json" }, options.headers || {});
    var init = { method: method, headers: headers, credentials: "same-origin", signal: options.signal };
    if (!/^(GET|HEAD|OPTIONS|TRACE)$/.test(method)) {
      headers["X-CSRFToken"] = Tourney.csrfToken();
    }
    if (options.body !== undefined && options.body !== null) {
      headers["Content-Type"] = "application/json";
      init.body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    }
    return window.fetch(url, init).then(
      function (response) {
        return response.text().then(function (text) {
          var data = null;
          if (text) {
            try {
              data = JSON.parse(text);
            } catch (e) {
              data = null;
            }
          }
          if (response.ok) return data;
          var detail = data && data.detail !== undefined ? data.detail : response.statusText;
          if (typeof detail !== "string") {
            // e.g. django-ninja validation errors: a list of {loc, msg}
            detail = Array.isArray(detail)
              ? detail.map(function (d) { return d && d.msg ? d.msg : JSON.stringify(d); }).join("; ")
              : JSON.stringify(detail);
          }
          var err = new Error(detail || "HTTP " + response.status);
          err.code = (data && data.code) || "http_" + response.status;
          err.detail = detail || "";
          err.status = response.status;
          err.data = data;
          throw err;
        });
      },
      function (cause) {
        if (cause && cause.name === "AbortError") throw cause;
        var err = new Error(Tourney.i18n.networkError);
        err.code = "network";
        err.detail = Tourney.i18n.networkError;
        err.status = 0;
        err.cause = cause;
        throw err;
      }
    );
  };

  /* ------------------------------------------------------------ keyboard shortcuts */

  var KEY_ALIASES = { space: " ", spacebar: " ", esc: "escape", del: "delete", return: "enter" };

  function normalizeCombo(combo) {
    var parts = String(combo).split("+");
    var key = parts.pop();
    if (key === "" && parts.length) key = "+"; // "ctrl++"
    key = key.length === 1 ? key.toLowerCase() : key.toLowerCase();
    key = KEY_ALIASES[key] || key;
    var mods = parts.map(function (m) { return m.trim().toLowerCase(); }).sort();
    return mods.concat([key]).join("+");
  }

  function eventCombo(e) {
    var key = e.key === undefined ? "" : e.key.length === 1 ? e.key.toLowerCase() : e.key.toLowerCase();
    var mods = [];
    if (e.altKey) mods.push("alt");
    if (e.ctrlKey) mods.push("ctrl");
    if (e.metaKey) mods.push("meta");
    // Shift only counts for non-printable keys ("shift+tab"); "?" is already shifted.
    if (e.shiftKey && key.length > 1) mods.push("shift");
    return mods.sort().concat([key]).join("+");
  }

  function isTyping(target) {
    if (!target || !target.tagName) return false;
    if (target.isContentEditable) return true;
    var tag = target.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT") return true;
    if (tag !== "INPUT") return false;
    var type = (target.getAttribute("type") || "text").toLowerCase();
    return ["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].indexOf(type) === -1;
  }

  /**
   * Bind shortcuts: Tourney.shortcuts({"Space": pause, "/": focusSearch, "Escape": close}).
   * Keys are KeyboardEvent.key values (case-insensitive; "Space" for the space bar), optionally
   * prefixed with modifiers ("ctrl+k", "alt+n"). Ignored while the focus is in a text field,
   * except Escape. The handler gets the event; the default action is prevented unless the
   * handler returns false. Returns a function that unbinds them.
   */
  Tourney.shortcuts = function (map) {
    var table = {};
    Object.keys(map).forEach(function (combo) {
      table[normalizeCombo(combo)] = map[combo];
    });
    function listener(e) {
      if (e.defaultPrevented || e.isComposing) return;
      var combo = eventCombo(e);
      var handler = table[combo];
      if (!handler) return;
      if (e.key !== "Escape" && isTyping(e.target)) return;
      if (handler.call(e.target, e) !== false) e.preventDefault();
    }
    document.addEventListener("keydown", listener);
    return function unbind() {
      document.removeEventListener("keydown", listener);
    };
  };

  /* ------------------------------------------------------------ numbers */

  var formatters = {};

  /** Format a number as the page's language writes it: 40 000 (hu), 40,000 (en). */
  Tourney.formatNumber = function (n, options) {
    if (n === null || n === undefined || n === "" || isNaN(Number(n))) return "";
    var lang = document.documentElement.getAttribute("lang") || undefined;
    // "always": group 4-digit numbers too (4 000), as Django does with USE_THOUSAND_SEPARATOR.
    var opts = Object.assign({ useGrouping: "always", maximumFractionDigits: 2 }, options || {});
    var key = (lang || "") + "|" + JSON.stringify(opts);
    var f = formatters[key];
    if (!f) {
      try {
        f = new Intl.NumberFormat(lang, opts);
      } catch (e) {
        f = new Intl.NumberFormat(undefined, Object.assign({}, opts, { useGrouping: true }));
      }
      formatters[key] = f;
    }
    return f.format(Number(n));
  };

  /**
   * A table seen from above: the felt with the table's number and the seats round it, seat 1 at
   * the dealer's left, clockwise from the dealer's place at the bottom middle. The player's page
   * (small marks, `layout` "oval": round an ellipse) and the dealer's page (buttons with names,
   * "stadium": up the long sides of a tall table and across its far end, where the names fit
   * and no seat covers another) draw it. `make(seat, index)` returns each seat's element; it
   * is placed by its centre (left/top in %).
   */
  Tourney.tableMap = function (box, number, seats, make, layout) {
    box.textContent = "";
    var felt = document.createElement("div");
    felt.className = "pp-felt num";
    felt.textContent = number;
    box.appendChild(felt);
    var spots = Tourney.tableMap.spots(seats.length, layout);
    seats.forEach(function (seat, i) {
      var el = make(seat, i);
      el.style.left = spots[i][0].toFixed(2) + "%";
      el.style.top = spots[i][1].toFixed(2) + "%";
      box.appendChild(el);
    });
  };

  /** [left %, top %] of each of `n` seats' centres (see Tourney.tableMap). */
  Tourney.tableMap.spots = function (n, layout) {
    var spots = [];
    var i;
    if (layout !== "stadium") {
      for (i = 0; i < n; i++) {
        var angle = Math.PI / 2 + ((i + 0.5) / n) * 2 * Math.PI;
        spots.push([50 + 44 * Math.cos(angle), 50 + 40 * Math.sin(angle)]);
      }
      return spots;
    }
    // Up the left side (from the dealer's left), across the far end, down the right side.
    var far = n % 2 ? 1 : n >= 10 ? 2 : 0;
    var side = (n - far) / 2;
    var low = 88;
    var high = far ? 30 : 14;
    var step = side > 1 ? (low - high) / (side - 1) : 0;
    for (i = 0; i < side; i++) spots.push([17, low - i * step]);
    for (i = 0; i < far; i++) spots.push([far === 1 ? 50 : 33 + 34 * i, 9]);
    for (i = side - 1; i >= 0; i--) spots.push([83, low - i * step]);
    return spots;
  };

  /**
   * Money as every page writes it: `pattern` is the server's (infra/text/money.py money_pattern,
   * the `money_pattern` filter), "%(n)s\u00a0Ft" or "€%(n)s"; the number as formatNumber.
   */
  Tourney.formatMoney = function (n, pattern) {
    var number = Tourney.formatNumber(n);
    if (number === "") return "";
    return (pattern || "%(n)s").replace("%(n)s", number);
  };

  /* ------------------------------------------------------------ server clock */

  /**
   * Tourney.serverClock estimates how far this device's clock is from the server's, from
   * GET /api/v1/time samples ({"server_time_ms": int}). Of N samples it keeps the one with
   * the lowest round trip (the least queueing, so the tightest bound), assuming the server
   * stamped it half way through the round trip. Screens count down with
   *   remaining = ends_at_ms - Tourney.serverClock.now()
   * on each animation frame, never by accumulating setInterval ticks.
   */
  var clock = {
    url: "/api/v1/time",
    offset: 0, // server time - Date.now(), in ms
    rtt: Infinity, // round trip of the sample in use, ms
    synced: false,
    syncedAt: 0,
    _timer: null,
    _running: null,

    /** Estimated server time in epoch milliseconds. */
    now: function () {
      return Date.now() + this.offset;
    },

    /** One sample: {offset, rtt}. */
    sample: function (url) {
      var perf = window.performance && window.performance.now ? window.performance : Date;
      var t0 = perf.now();
      return window
        .fetch(url + (url.indexOf("?") === -1 ? "?" : "&") + "_=" + Date.now(), {
          cache: "no-store",
          credentials: "same-origin",
          headers: { Accept: "application/json" },
        })
        .then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          return r.json();
        })
        .then(function (data) {
          var t1 = perf.now();
          var rtt = t1 - t0;
          var server = Number(data.server_time_ms);
          if (!isFinite(server)) throw new Error("bad server_time_ms");
          return { offset: server + rtt / 2 - Date.now(), rtt: rtt };
        });
    },

    /**
     * Take `samples` samples (default 5), `gap` ms apart (default 150), and adopt the one with
     * the lowest round trip. Resolves with {offset, rtt}; if every sample failed, keeps the
     * previous estimate and rejects.
     */
    sync: function (opts) {
      opts = opts || {};
      var self = this;
      var url = opts.url || self.url;
      var n = opts.samples || 5;
      var gap = opts.gap !== undefined ? opts.gap : 150;
      if (self._running) return self._running;
      var best = null;
      var i = 0;
      function next() {
        if (i >= n) return Promise.resolve();
        i++;
        return self
          .sample(url)
          .then(
            function (s) { if (!best || s.rtt < best.rtt) best = s; },
            function () { /* a lost sample is just skipped */ }
          )
          .then(function () {
            if (i >= n) return;
            return new Promise(function (res) { window.setTimeout(res, gap); }).then(next);
          });
      }
      self._running = next().then(function () {
        self._running = null;
        if (!best) throw new Error("server clock: no sample");
        self.offset = Math.round(best.offset);
        self.rtt = best.rtt;
        self.synced = true;
        self.syncedAt = Date.now();
        document.dispatchEvent(new CustomEvent("tourney:clocksync", { detail: { offset: self.offset, rtt: self.rtt } }));
        return { offset: self.offset, rtt: self.rtt };
      }, function (e) {
        self._running = null;
        throw e;
      });
      return self._running;
    },

    /** Sync now, then every `interval` ms (default 10 min) and whenever the network comes back. */
    start: function (opts) {
      opts = opts || {};
      var self = this;
      if (opts.url) self.url = opts.url;
      self.stop();
      var run = function () { return self.sync(opts).catch(function () {}); };
      self._timer = window.setInterval(run, opts.interval || 10 * 60 * 1000);
      self._onOnline = run;
      window.addEventListener("online", run);
      return run();
    },

    stop: function () {
      if (this._timer) window.clearInterval(this._timer);
      this._timer = null;
      if (this._onOnline) window.removeEventListener("online", this._onOnline);
      this._onOnline = null;
    },
  };
  Tourney.serverClock = clock;

  /* ------------------------------------------------------------ online / offline */

  var online = navigator.onLine !== false;

  /**
   * Mark the page online or offline: toggles body.is-offline and shows #offline-banner.
   * Called by the browser's online/offline events; an event-stream client should call it
   * too when its connection drops or comes back (navigator.onLine misses a dead server).
   */
  Tourney.setOnline = function (value) {
    online = !!value;
    if (!document.body) return;
    document.body.classList.toggle("is-offline", !online);
    var banner = document.getElementById("offline-banner");
    if (banner) banner.hidden = online;
    document.dispatchEvent(new CustomEvent(online ? "tourney:online" : "tourney:offline"));
  };
  Tourney.isOnline = function () { return online; };
  window.addEventListener("online", function () { Tourney.setOnline(true); });
  window.addEventListener("offline", function () { Tourney.setOnline(false); });

  /* ------------------------------------------------------------ search-as-you-type list */

  /**
   * Keyboard over a result list: ArrowDown/ArrowUp move .is-active (and aria-selected)
   * through the list's options ([role=option] or .search-result), Enter picks the active one
   * (clicks it: a link navigates, a button / hx-post fires), Escape clears the input.
   * The first result becomes active whenever the list is replaced (e.g. by an htmx swap), so
   * "type, Enter" picks the best match. `results` may be an element or a selector.
   * Declarative: <input data-search-results="#results">.
   */
  Tourney.searchList = function (input, results, opts) {
    opts = opts || {};
    var list = typeof results === "string" ? document.querySelector(results) : results;
    if (!input || !list) return;
    if (!list.id) list.id = "search-results-" + Math.random().toString(36).slice(2, 8);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    if (!list.getAttribute("role")) list.setAttribute("role", "listbox");

    function options() {
      var rows = list.querySelectorAll(".search-result");
      if (!rows.length) rows = list.querySelectorAll('[role="option"]');
      return Array.prototype.slice.call(rows);
    }
    function setActive(el) {
      options().forEach(function (o) {
        var on = o === el;
        o.classList.toggle("is-active", on);
        o.setAttribute("aria-selected", on ? "true" : "false");
      });
      if (el) {
        if (!el.id) el.id = list.id + "-" + options().indexOf(el);
        input.setAttribute("aria-activedescendant", el.id);
        if (el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }
    function refresh() {
      var opts_ = options();
      input.setAttribute("aria-expanded", opts_.length ? "true" : "false");
      opts_.forEach(function (o) { if (!o.getAttribute("role")) o.setAttribute("role", "option"); });
      var current = list.querySelector(".is-active");
      setActive(current && opts_.indexOf(current) !== -1 ? current : opts_[0] || null);
    }
    input.addEventListener("keydown", function (e) {
      var opts_ = options();
      var i = opts_.indexOf(list.querySelector(".is-active"));
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        if (!opts_.length) return;
        e.preventDefault();
        var step = e.key === "ArrowDown" ? 1 : -1;
        setActive(opts_[(i + step + opts_.length) % opts_.length]);
      } else if (e.key === "Enter") {
        if (i < 0) return;
        e.preventDefault();
        var chosen = opts_[i];
        if (opts.onChoose) opts.onChoose(chosen, e);
        else chosen.click();
      } else if (e.key === "Escape" && input.value) {
        e.preventDefault();
        input.value = "";
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
    list.addEventListener("mousemove", function (e) {
      var rows = options();
      var o = null;
      for (var k = 0; k < rows.length; k++) if (rows[k].contains(e.target)) o = rows[k];
      if (o && !o.classList.contains("is-active")) setActive(o);
    });
    new MutationObserver(refresh).observe(list, { childList: true, subtree: true });
    refresh();
    return { refresh: refresh, setActive: setActive };
  };

  /* ------------------------------------------------------------ page wiring */

  /** A seat's name in a table oval shows whole, its seat no taller than the others (so it
   * stays clear of its neighbours): a long name ("Szentgyörgyvölgyi-Kovácsné Ágnes") gets a
   * smaller font until its words fit the seat's width and its lines (three at most) the seat's
   * height, down to 55 %; only a word too long even then is broken. Called again after a live
   * update (floor.js), a resize and once the fonts are loaded. */
  function fitSeatNames(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll(".table-oval .seat-name"), function (el) {
      var seat = el.closest(".seat");
      if (!seat || !el.getClientRects().length) return;
      el.style.fontSize = "";
      el.classList.remove("is-broken");
      var limit = parseFloat(window.getComputedStyle(seat).minHeight) || 0;
      var overflows = function () {
        // not a pixel over: the clamp's box cuts a word's last letter at the first one
        return el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth ||
          (limit && seat.offsetHeight > limit + 1);
      };
      if (!overflows()) return;
      var size = parseFloat(window.getComputedStyle(el).fontSize);
      var floor = size * 0.55;
      while (overflows() && size > floor) {
        size = Math.max(floor, size * 0.93);
        el.style.fontSize = size.toFixed(2) + "px";
      }
      if (overflows()) el.classList.add("is-broken");
    });
  }
  Tourney.fitSeatNames = fitSeatNames;

  var refitTimer = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(refitTimer);
    refitTimer = window.setTimeout(function () { fitSeatNames(document); }, 100);
  });
  if (document.fonts && document.fonts.ready) {
    document.fonts.ready.then(function () { fitSeatNames(document); });
  }

  function wire(root) {
    root = root || document;
    fitSeatNames(root);
    var inputs = Array.prototype.slice.call(root.querySelectorAll("input[data-search-results]:not([data-wired])"));
    if (root.matches && root.matches("input[data-search-results]:not([data-wired])")) inputs.push(root);
    inputs.forEach(function (input) {
      input.setAttribute("data-wired", "1");
      Tourney.searchList(input, input.getAttribute("data-search-results"));
    });
  }

  onReady(function () {
    var body = document.body;
    var menu = document.querySelector(".nav-toggle");
    if (menu) menu.addEventListener("click", function () {
      var nav = document.getElementById(menu.getAttribute("aria-controls"));
      var open = !nav.classList.contains("is-open");
      nav.classList.toggle("is-open", open);
      menu.setAttribute("aria-expanded", open ? "true" : "false");
    });
    // translated strings from <body data-i18n-undo="..." ...>
    Object.keys(Tourney.i18n).forEach(function (k) {
      var v = body.getAttribute("data-i18n-" + k.replace(/[A-Z]/g, function (c) { return "-" + c.toLowerCase(); }));
      if (v) Tourney.i18n[k] = v;
    });
    Tourney.setOnline(navigator.onLine !== false);
    if (Tourney.toasts) Tourney.toasts.enhance();
    wire(document);
    // "?" opens this screen's page of the manual (the top bar's help link), in a new tab.
    var help = document.getElementById("help-link");
    if (help) Tourney.shortcuts({ "?": function () { window.open(help.href, "_blank", "noopener"); } });

    document.addEventListener("change", function (e) {
      var t = e.target;
      if (t && t.closest && t.closest("[data-autosubmit]")) {
        var form = t.form || t.closest("form");
        if (form) form.requestSubmit ? form.requestSubmit() : form.submit();
      }
    });
    document.addEventListener("click", function (e) {
      var t = e.target && e.target.closest ? e.target : null;
      if (t && t.closest("[data-print]")) {
        e.preventDefault();
        window.print();
      }
      // close open user menus on outside clicks
      Array.prototype.forEach.call(document.querySelectorAll("details.user-menu[open]"), function (d) {
        if (!t || !d.contains(t)) d.removeAttribute("open");
      });
    });
    document.addEventListener("keydown", function (e) {
      if (e.key !== "Escape") return;
      Array.prototype.forEach.call(document.querySelectorAll("details.user-menu[open]"), function (d) {
        d.removeAttribute("open");
        var s = d.querySelector("summary");
        if (s) s.focus();
      });
    });
  });

  // content swapped in by htmx: wire search lists and any server toasts it carried
  document.addEventListener("htmx:load", function (e) {
    wire(e.target && e.target.querySelectorAll ? e.target : document);
    if (Tourney.toasts) Tourney.toasts.enhance();
  });
})(window, document);
