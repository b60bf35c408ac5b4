/*!
 * floor.js: the floor's live parts on the director console and the dealer's table page.
 * Plain script after tourney.js and clock.js (Tourney.liveClock); no build step.
 *
 *   Tourney.floor.start({eventsUrl, ownStream})
 *     ownStream: open the event stream here (the dealer page); without it the page's own
 *     Tourney.liveClock (the console clock strip) shares its stream through the
 *     "tourney:event" / "tourney:stream" document events that clock.js dispatches.
 *   Tourney.floor.refresh(kind)   refetch the partials listening to `kind` ("*" = all)
 *
 * What it does:
 *   - [data-floor-partial="<url>"][data-refresh-on="actions hand ..."]: refetched (debounced)
 *     when one of those events arrives, after an Undo, after a floor form succeeds, and in full
 *     on every (re)connect of the stream. A partial holding an open dialog, a focused field or
 *     an element marked [data-floor-busy] (a half-filled form) waits until it is closed, left
 *     or unmarked, so nobody loses what they were typing.
 *   - Forms posted by htmx to tables/floor/views.py answer with HX-Trigger "floor:done"
 *     {ok, toasts: [{message, kind, undoUrl?, link?: {href, label}}]}: shown as toasts (Undo
 *     where given; a link, e.g. "Rebuy" to the desk after a bust-out).
 *   - section.clock-call: the big countdown from data-ends-at-ms / data-countdown-from-ms and
 *     Tourney.serverClock (time to act, then the closing countdown in red, then "Time is up");
 *     enables "Time expired" at zero and disables "Acted".
 *   - [data-dialog-open="<dialog id>"] opens a <dialog>, [data-dialog-close] closes it; a
 *     refusal while a dialog is open shows in its [data-dialog-error] line (a modal dialog
 *     covers the toasts).
 *   - The console's quick bust-out (#quick-bustout-form): results from #bustout-results are
 *     added to #bustout-picked; Enter on an empty search box sends them.
 *
 * Stable hooks for browser tests (see also the templates' header comments):
 *   dealer page   #dealer-live, #dealer-hold[data-hold=halted|hand_for_hand|closed],
 *                 #dealer-moves li.move-item[data-move] (.is-incoming/.is-outgoing)
 *                 button.move-done, select.move-mover, #hand-finished, #bustout-open,
 *                 #bustout-dialog, #bustout-form input[name=entry][data-seat],
 *                 input[name^=stack_], #bustout-finish, #bustout-only, #clock-call-open,
 *                 #clock-call-dialog, #clock-call-form input[name=seat], #clock-call-start
 *   console       #floor-todo li.floor-action[data-action][data-kind] form.floor-done,
 *                 form.floor-move-done (tr[data-move]), form.floor-undo, a.floor-slip,
 *                 li.floor-hold[data-halted]; #floor-tables .floor-table[data-table].is-halted;
 *                 #floor-h4h #h4h-panel[data-active] #h4h-toggle li.h4h-table[data-state];
 *                 #quick-bustout-form #bustout-search #bustout-results #bustout-picked
 *                 #bustout-submit; key "b" focuses the search box
 *   body[data-floor-stream=online|offline]: the event stream is (re)connected or lost
 *   both          #floor-clock-calls / #dealer-clock-calls section.clock-call[data-clock-call]
 *                 [data-clock-call-time] [data-clock-call-phase] button.clock-call-end
 *                 [data-outcome=acted|expired|cancelled]; body[data-floor-refreshed] counts
 *                 refreshes (tests wait on it)
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney || (window.Tourney = {});
  var T = function (key, fallback) { return (Tourney.i18n && Tourney.i18n[key]) || fallback; };
  var EXTRA_KINDS = ["hand_for_hand", "clock_call", "penalty"];
  var DEBOUNCE_MS = 250;

  /* ------------------------------------------------------------ partials */

  var wanted = {};       // kind -> true, collected until the debounce fires
  var timer = null;
  var refreshes = 0;

  function listensTo(el, kinds) {
    if (kinds["*"]) return true;
    var on = (el.getAttribute("data-refresh-on") || "").split(/\s+/);
    for (var i = 0; i < on.length; i++) if (on[i] && kinds[on[i]]) return true;
    return false;
  }

  /** True while someone is using the partial: an open dialog or a focused field in it. */
  function busy(el) {
    if (el.querySelector("dialog[open], [data-floor-busy]")) return true;
    var active = document.activeElement;
    return !!(active && el.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName) &&
      active.type !== "submit" && active.type !== "button");
  }

  function load(el) {
    if (busy(el)) {
      el.setAttribute("data-floor-deferred", "1");
      return;
    }
    el.removeAttribute("data-floor-deferred");
    var seq = (Number(el.getAttribute("data-floor-seq")) || 0) + 1;
    el.setAttribute("data-floor-seq", String(seq));
    window.fetch(el.getAttribute("data-floor-partial"), {
      credentials: "same-origin",
      headers: { "HX-Request": "true", Accept: "text/html" },
    }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.text();
    }).then(function (html) {
      if (String(seq) !== el.getAttribute("data-floor-seq")) return; // a newer one is coming
      if (busy(el)) { el.setAttribute("data-floor-deferred", "1"); return; }
      el.innerHTML = html;
      el.classList.remove("is-stale");
      if (window.htmx) window.htmx.process(el);
      if (Tourney.fitSeatNames) Tourney.fitSeatNames(el); // the new names fit their seats too
      refreshes += 1;
      document.body.setAttribute("data-floor-refreshed", String(refreshes));
      if (!frame) tick();
    }).catch(function () {
      el.classList.add("is-stale");
      el.setAttribute("title", T("floorStale", "Could not refresh"));
    });
  }

  function flush() {
    timer = null;
    var kinds = wanted;
    wanted = {};
    Array.prototype.forEach.call(document.querySelectorAll("[data-floor-partial]"), function (el) {
      if (listensTo(el, kinds)) load(el);
    });
  }

  function refresh(kind) {
    wanted[kind || "*"] = true;
    if (!timer) timer = window.setTimeout(flush, DEBOUNCE_MS);
  }

  /** A partial that waited for a dialog or a field: load it once that is over. */
  function flushDeferred() {
    window.setTimeout(function () {
      Array.prototype.forEach.call(document.querySelectorAll("[data-floor-deferred]"), load);
    }, 0);
  }
  document.addEventListener("focusout", function (e) {
    if (e.target && e.target.closest && e.target.closest("[data-floor-deferred]")) flushDeferred();
  });

  /* ------------------------------------------------------------ events and form answers */

  // The page was rendered just now: its first connection has nothing to catch up on, and a
  // full refetch then would swap every part under the reader's finger for nothing.
  var firstReady = true;
  var firstOnline = true;
  document.addEventListener("tourney:event", function (e) {
    var kind = e.detail && e.detail.kind;
    if (kind === "ready" && firstReady) { firstReady = false; return; }
    refresh(kind === "ready" ? "*" : kind);
  });
  document.addEventListener("tourney:stream", function (e) {
    var online = !!(e.detail && e.detail.online);
    document.body.setAttribute("data-floor-stream", online ? "online" : "offline");
    if (!online) return;
    if (firstOnline) { firstOnline = false; return; }
    refresh("*"); // caught up after an outage
  });
  document.addEventListener("tourney:undone", function () { refresh("*"); });

  /**
   * Tell the person: a toast, or inside an open dialog its [data-dialog-error] line (a modal
   * dialog sits above the page, toasts included).
   */
  function say(form, message, opts) {
    var dialog = form && form.closest("dialog");
    var line = dialog && dialog.open ? dialog.querySelector("[data-dialog-error]") : null;
    if (line && (opts.kind === "bad" || opts.kind === "warn")) {
      line.textContent = message;
      line.hidden = false;
      return;
    }
    Tourney.toast(message, opts);
  }

  document.addEventListener("floor:done", function (e) {
    var d = e.detail || {};
    var form = e.target && e.target.closest ? e.target.closest("form") : null;
    (d.toasts || []).forEach(function (t) {
      var opts = { kind: t.kind, undoUrl: t.undoUrl, link: t.link };
      if (d.ok) Tourney.toast(t.message, opts);
      else say(form, t.message, opts);
    });
    if (!d.ok) return;
    var dialog = form && form.closest("dialog");
    if (dialog && dialog.open) dialog.close();
    if (form && form.hasAttribute("data-bustout-quick")) clearPicks(form);
    refresh("*");
  });

  document.addEventListener("htmx:sendError", function () {
    Tourney.toast(T("networkError", "No connection to the server"), { kind: "bad" });
  });

  /* ------------------------------------------------------------ dialogs */

  document.addEventListener("click", function (e) {
    var opener = e.target.closest && e.target.closest("[data-dialog-open]");
    if (opener && !opener.disabled) {
      var dialog = document.getElementById(opener.getAttribute("data-dialog-open"));
      if (dialog && !dialog.open) {
        var form = dialog.querySelector("form");
        if (form) form.reset();
        var line = dialog.querySelector("[data-dialog-error]");
        if (line) line.hidden = true;
        dialog.showModal();
      }
      return;
    }
    var closer = e.target.closest && e.target.closest("[data-dialog-close]");
    if (closer) {
      var d = closer.closest("dialog");
      if (d) d.close();
    }
  });
  document.addEventListener("close", function (e) {
    if (e.target && e.target.tagName === "DIALOG") flushDeferred();
  }, true);

  /* A form sent without what it needs: say so instead of asking the server. */
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail && e.detail.elt && e.detail.elt.closest ? e.detail.elt.closest("form") : null;
    if (!form || (e.detail.requestConfig && e.detail.requestConfig.verb === "get")) return;
    if (form.id === "bustout-form" || form.hasAttribute("data-bustout-quick")) {
      if (!form.querySelector('input[name="entry"]:checked, input[type="hidden"][name="entry"]')) {
        e.preventDefault();
        say(form, T("floorChooseBust", "Tap the players who busted first."), { kind: "warn" });
      }
    } else if (form.id === "clock-call-form" && !form.querySelector('input[name="seat"]:checked')) {
      e.preventDefault();
      say(form, T("floorChooseSeat", "Choose a seat first."), { kind: "warn" });
    }
  });

  /* ------------------------------------------------------------ clock calls */

  var frame = null;

  function serverNow() {
    return Tourney.serverClock ? Tourney.serverClock.now() : Date.now();
  }

  function renderCall(el, now) {
    var ends = Number(el.getAttribute("data-ends-at-ms"));
    var from = Number(el.getAttribute("data-countdown-from-ms"));
    var phase, ms;
    if (now < from) { phase = "running"; ms = from - now; }
    else if (now < ends) { phase = "countdown"; ms = ends - now; }
    else { phase = "expired"; ms = 0; }
    var secs = Math.ceil(ms / 1000);
    var text = phase === "running" ? Tourney.liveClock.formatSeconds(secs) : String(secs);
    var key = phase + "|" + text;
    if (el.getAttribute("data-shown") === key) return;
    el.setAttribute("data-shown", key);
    el.setAttribute("data-phase", phase);
    el.classList.toggle("is-running", phase === "running");
    el.classList.toggle("is-countdown", phase === "countdown");
    el.classList.toggle("is-expired", phase === "expired");
    var time = el.querySelector("[data-clock-call-time]");
    if (time) time.textContent = text;
    var label = el.querySelector("[data-clock-call-phase]");
    if (label) label.textContent = el.getAttribute("data-label-" + phase) || "";
    Array.prototype.forEach.call(el.querySelectorAll("button.clock-call-end"), function (b) {
      var outcome = b.getAttribute("data-outcome");
      if (outcome === "acted") b.disabled = phase === "expired";
      if (outcome === "expired") b.disabled = phase !== "expired";
    });
  }

  function tick() {
    frame = null;
    var calls = document.querySelectorAll("section.clock-call[data-ends-at-ms]");
    if (!calls.length) return;
    var now = serverNow();
    Array.prototype.forEach.call(calls, function (el) { renderCall(el, now); });
    frame = window.requestAnimationFrame(tick);
  }
  document.addEventListener("tourney:clocksync", function () {
    Array.prototype.forEach.call(document.querySelectorAll("section.clock-call"), function (el) {
      el.removeAttribute("data-shown");
    });
    if (!frame) tick();
  });

  /* ------------------------------------------------------------ quick bust-out (console) */

  function picks(form) { return form.querySelector("#bustout-picked"); }

  function updatePicks(form) {
    var list = picks(form);
    var n = list ? list.children.length : 0;
    var submit = form.querySelector("#bustout-submit");
    if (submit) submit.disabled = n === 0;
    var help = form.querySelector("#bustout-help");
    if (help) help.hidden = n < 2;
  }

  function clearPicks(form) {
    var list = picks(form);
    if (list) list.innerHTML = "";
    updatePicks(form);
    var search = form.querySelector("#bustout-search");
    if (search) search.focus();
  }

  function pick(form, row) {
    var list = picks(form);
    var template = document.getElementById("bustout-picked-row");
    var id = row.getAttribute("data-pick-entry");
    var search = form.querySelector("#bustout-search");
    var results = document.getElementById("bustout-results");
    if (list.querySelector('li[data-entry="' + id + '"]')) {
      Tourney.toast(T("floorAlreadyChosen", "Already chosen."), { kind: "info", timeout: 2000 });
    } else if (template) {
      var li = template.content.firstElementChild.cloneNode(true);
      li.setAttribute("data-entry", id);
      li.querySelector('input[name="entry"]').value = id;
      li.querySelector(".bustout-pick-name").textContent = row.getAttribute("data-name");
      li.querySelector(".bustout-pick-where").textContent = row.getAttribute("data-where");
      li.querySelector(".bustout-pick-stack input").setAttribute("name", "stack_" + id);
      list.appendChild(li);
    }
    if (search) { search.value = ""; search.focus(); }
    if (results) results.innerHTML = "";
    updatePicks(form);
  }

  var chooseWhenLoaded = false;

  document.addEventListener("click", function (e) {
    var row = e.target.closest && e.target.closest("[data-pick-entry]");
    var form = document.getElementById("quick-bustout-form");
    if (row && form) { e.preventDefault(); pick(form, row); return; }
    var remove = e.target.closest && e.target.closest(".bustout-remove");
    if (remove && form) {
      var li = remove.closest("li");
      if (li) li.parentNode.removeChild(li);
      updatePicks(form);
      form.querySelector("#bustout-search").focus();
    }
  });

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || !e.target || e.target.id !== "bustout-search") return;
    var results = document.getElementById("bustout-results");
    var hasOptions = results && results.querySelector("[data-pick-entry]");
    if (e.target.value.trim() && !hasOptions) {
      // Enter before the results arrived: take the first one when they do.
      e.preventDefault();
      chooseWhenLoaded = true;
    }
  }, true);

  document.addEventListener("htmx:afterSwap", function (e) {
    if (!e.target || e.target.id !== "bustout-results") return;
    var first = e.target.querySelector("[data-pick-entry]");
    if (chooseWhenLoaded && first) pick(document.getElementById("quick-bustout-form"), first);
    chooseWhenLoaded = false;
  });

  /* ------------------------------------------------------------ start */

  var started = false;

  function start(opts) {
    opts = opts || {};
    if (started) return;
    started = true;
    if (opts.ownStream && opts.eventsUrl && Tourney.liveClock) {
      // No clock drawn here: the live clock only carries the stream, the online banner and
      // the server-clock offset the clock-call countdown needs.
      Tourney.floor.stream = Tourney.liveClock({ eventsUrl: opts.eventsUrl, kinds: EXTRA_KINDS });
    } else if (Tourney.serverClock && !Tourney.serverClock._timer) {
      Tourney.serverClock.start({ interval: 5 * 60 * 1000 });
    }
    var quick = document.getElementById("quick-bustout-form");
    if (quick) {
      updatePicks(quick);
      Tourney.shortcuts({ b: function () {
        if (Tourney.openTool) Tourney.openTool("bustout");  // the console's tab, if closed
        quick.querySelector("#bustout-search").focus();
      } });
    }
    if (!frame) tick();
  }

  Tourney.floor = { start: start, refresh: refresh, kinds: EXTRA_KINDS };
})(window, document);
