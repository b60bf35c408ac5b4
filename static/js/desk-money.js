/*!
 * desk-money.js: rebuys and add-ons at the registration desk (after tourney.js; no build step).
 *
 * The search rows of a player who may buy chips carry a strip (templates/tourney/
 * _desk_purchase.html): .desk-purchase[data-purchase-for][data-rebuy-url][data-addon-url] with
 * button[data-buy=rebuy|addon], an optional input[name=stack] and .desk-purchase-error.
 *
 *   Enter on such a row (desk.html calls Tourney.deskMoney.focus(row)) moves to its first
 *   control; Alt+R / Alt+A from the search box, or R / A outside a field, buy for the
 *   highlighted row; Enter in the stack box buys the rebuy.
 *   The purchase POSTs to the API with the desk's "Paid by" choice. A refusal shows in the
 *   strip; success goes to ?purchase=<id> (the confirmation with the receipt) and shows a toast
 *   with Undo there (kept in sessionStorage across the page load).
 *   [data-purchase-undo] (the confirmation's Undo) and the toast's Undo refund, then reload.
 *   ?entry=<id> (the console's Rebuy after a bust-out): the search box is filled; once the
 *   rows arrive, that entry's strip gets the focus.
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney || (window.Tourney = {});
  var TOAST_KEY = "tourney:desk-purchase-toast";

  function results() { return document.getElementById("search-results"); }

  function stripFor(row) {
    if (!row) return null;
    var next = row.nextElementSibling;
    return next && next.classList.contains("desk-purchase") ? next : null;
  }

  function activeRow() {
    var box = results();
    return box ? box.querySelector("[data-player-id].is-active") : null;
  }

  function firstControl(strip) {
    return strip && strip.querySelector("input[name=stack], button[data-buy]:not([disabled])");
  }

  function focus(row) {
    var control = firstControl(stripFor(row));
    if (control) control.focus();
    return !!control;
  }

  function method() {
    var chosen = document.querySelector('input[name="method"][form="register-form"]:checked');
    return chosen ? chosen.value : "cash";
  }

  function say(strip, message) {
    var line = strip.querySelector(".desk-purchase-error");
    line.textContent = message;
    line.hidden = !message;
  }

  /** A number as a person types it: "12 000", "12,000", "12.000". */
  function chips(text) {
    var cleaned = String(text || "").replace(/[\s,.'\u00a0\u202f]/g, "");
    return /^\d+$/.test(cleaned) ? Number(cleaned) : null;
  }

  function deskUrl() { return window.location.pathname; }

  function buy(strip, kind) {
    var button = strip.querySelector('button[data-buy="' + kind + '"]');
    if (!button || button.disabled) return;
    var body = { method: method() };
    var stack = kind === "rebuy" ? strip.querySelector("input[name=stack]") : null;
    if (stack) {
      var n = chips(stack.value);
      if (n === null) {
        say(strip, stack.getAttribute("data-required"));
        stack.focus();
        return;
      }
      body.stack = n;
    }
    say(strip, "");
    button.disabled = true;
    Tourney.fetchJSON(strip.getAttribute("data-" + kind + "-url"), { method: "POST", body: body }).then(
      function (row) {
        try {
          window.sessionStorage.setItem(TOAST_KEY, JSON.stringify({ message: row.summary, undoUrl: row.undo_url }));
        } catch (e) { /* private mode: no toast after the reload, the confirmation still shows */ }
        window.location.href = deskUrl() + "?purchase=" + row.id;
      },
      function (err) {
        button.disabled = false;
        say(strip, err.detail || err.message);
        button.focus();
      }
    );
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button[data-buy]");
    if (button) { buy(button.closest(".desk-purchase"), button.getAttribute("data-buy")); return; }
    var reenter = e.target.closest && e.target.closest("button[data-reenter]");
    if (reenter) {
      var strip = reenter.closest(".desk-purchase");
      document.getElementById("register-player-id").value = strip.getAttribute("data-purchase-for");
      document.getElementById("register-form").submit();
      return;
    }
    var undo = e.target.closest && e.target.closest("[data-purchase-undo]");
    if (undo) {
      undo.disabled = true;
      Tourney.fetchJSON(undo.getAttribute("data-purchase-undo"), { method: "POST" }).then(
        function () { window.location.reload(); },
        function (err) { undo.disabled = false; Tourney.toast(err.detail || err.message, { kind: "bad" }); }
      );
    }
  });

  // Alt+R / Alt+A work from the search box too (plain R and A are letters there); Enter in a
  // stack box buys the rebuy.
  document.addEventListener("keydown", function (e) {
    var key = (e.key || "").toLowerCase();
    if (e.key === "Enter" && e.target && e.target.name === "stack" && e.target.closest(".desk-purchase")) {
      e.preventDefault();
      buy(e.target.closest(".desk-purchase"), "rebuy");
      return;
    }
    if (!e.altKey || (key !== "r" && key !== "a" && e.code !== "KeyR" && e.code !== "KeyA")) return;
    var strip = stripFor(activeRow()) || (e.target.closest && e.target.closest(".desk-purchase"));
    if (!strip) return;
    e.preventDefault();
    var kind = key === "a" || e.code === "KeyA" ? "addon" : "rebuy";
    var stack = kind === "rebuy" && strip.querySelector("input[name=stack]");
    if (stack && chips(stack.value) === null) stack.focus();
    else buy(strip, kind);
  }, true);

  function focusedStrip() {
    var active = document.activeElement;
    return (active && active.closest && active.closest(".desk-purchase")) || stripFor(activeRow());
  }

  function shortcut(kind) {
    return function () {
      var strip = focusedStrip();
      if (!strip) return false;
      var stack = kind === "rebuy" && strip.querySelector("input[name=stack]");
      if (stack && chips(stack.value) === null) stack.focus();
      else buy(strip, kind);
    };
  }

  function start() {
    Tourney.shortcuts({ r: shortcut("rebuy"), a: shortcut("addon") });
    var saved = null;
    try {
      saved = JSON.parse(window.sessionStorage.getItem(TOAST_KEY) || "null");
      window.sessionStorage.removeItem(TOAST_KEY);
    } catch (e) { saved = null; }
    if (saved && saved.message) Tourney.toast(saved.message, { kind: "ok", undoUrl: saved.undoUrl });
    // The toast's Undo: show the confirmation again, now refunded.
    document.body.addEventListener("tourney:undone", function () { window.location.reload(); });

    var search = document.getElementById("player-search");
    // Back from recording a player's membership: his name is in the box; look him up.
    if (search && search.hasAttribute("data-search-now")) {
      window.setTimeout(function () { if (window.htmx) window.htmx.trigger(search, "search"); }, 0);
    }
    var focusEntry = search && search.getAttribute("data-focus-entry");
    if (focusEntry) {
      document.body.addEventListener("htmx:afterSwap", function once(e) {
        if (e.target !== results()) return;
        document.body.removeEventListener("htmx:afterSwap", once);
        var strip = results().querySelector('.desk-purchase[data-entry-id="' + focusEntry + '"]');
        if (!strip) return;
        var row = strip.previousElementSibling;
        Array.prototype.forEach.call(results().querySelectorAll("[data-player-id]"), function (r) {
          r.classList.toggle("is-active", r === row);
          r.setAttribute("aria-selected", r === row);
        });
        window.setTimeout(function () { focus(row); }, 0);
      });
      window.setTimeout(function () { if (window.htmx) window.htmx.trigger(search, "search"); }, 0);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();

  Tourney.deskMoney = { focus: focus, buy: buy };
})(window, document);
