/*!
 * payouts.js: the console's payouts panel (templates/tourney/_payouts_panel.html) and the
 * results page's Pay buttons. Plain script after tourney.js (and floor.js on the console);
 * everything is delegated from document, so the panel may be refetched at any time.
 *
 *   #payout-structure-select    PUT /api/v1/tournaments/<id>/payout-structure
 *   [data-pay-prize=<entry>]    opens #pay-dialog (amount, method); confirm POSTs
 *                               .../results/<entry>/pay; the toast has the receipt and Undo
 *   [data-pay-undo=<entry>]     POST .../results/<entry>/pay/undo (the money back at the cage)
 *   [data-deal-undo=<deal>]     POST .../deals/<deal>/undo
 *   #deal-form                  as you type: POST .../deals/preview (debounced) fills each
 *                               amount the director has not typed over and the total; submit
 *                               POSTs .../deals with the amounts shown.
 * Strings: #payouts-i18n (json_script) when the page has it.
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney;
  var stringsEl = document.getElementById("payouts-i18n");
  var S = stringsEl ? JSON.parse(stringsEl.textContent) : {};
  var t = function (key, fallback, params) {
    var text = S[key] || fallback;
    return text.replace(/%\((\w+)\)s/g, function (m, k) { return params && params[k] !== undefined ? params[k] : m; });
  };
  var fmt = function (n) { return Tourney.formatNumber(n); };
  var digits = function (text) {
    var d = String(text || "").replace(/[^\d-]/g, "");
    return d === "" || d === "-" ? null : parseInt(d, 10);
  };

  function refresh() {
    if (Tourney.floor) Tourney.floor.refresh("payouts");
    else window.location.reload();
  }

  function apiBase() {
    var panel = document.getElementById("payouts-panel") || document.querySelector("[data-tournament]");
    return "/api/v1/tournaments/" + (panel ? panel.getAttribute("data-tournament") : "");
  }

  function failed(err) { Tourney.toast(err.detail || err.message, { kind: "bad" }); }

  /* ------------------------------------------------------------ structure, pay, undo */

  document.addEventListener("change", function (e) {
    var select = e.target;
    if (!select || select.id !== "payout-structure-select") return;
    var value = select.value ? Number(select.value) : null;
    Tourney.fetchJSON(select.getAttribute("data-url"), { method: "PUT", body: { payout_structure_id: value } })
      .then(function () {
        Tourney.toast(t("structureSet", "Payout structure changed"), { kind: "ok" });
        select.blur();
        refresh();
      }, function (err) { failed(err); refresh(); });
  });

  /* Paying a prize: the button opens #pay-dialog (who, place, amount, method); the money is
     paid on confirm, and the toast offers the receipt and Undo. */
  function money(n) { return Tourney.formatMoney(n, S.money); }
  function afterCage() { if (document.getElementById("payouts-panel")) refresh(); else window.location.reload(); }
  var paying = null;

  function openPay(button) {
    var dialog = document.getElementById("pay-dialog");
    if (!dialog) return;
    paying = button.getAttribute("data-pay-prize");
    document.getElementById("pay-name").textContent = button.getAttribute("data-pay-name") || "";
    // "Place 3" ("3. hely"): "#" is the entry's number elsewhere
    var place = button.getAttribute("data-pay-place") || "";
    document.getElementById("pay-place").textContent = place ? t("place", "Place %(place)s", { place: place }) : "";
    document.getElementById("pay-amount").textContent = button.getAttribute("data-pay-amount") || "";
    var error = document.getElementById("pay-error");
    error.hidden = true;
    dialog.querySelector('input[name="method"][value="cash"]').checked = true;
    document.getElementById("pay-confirm").disabled = false;
    dialog.showModal();
    document.getElementById("pay-confirm").focus();
  }

  function confirmPay() {
    var dialog = document.getElementById("pay-dialog");
    var method = dialog.querySelector('input[name="method"]:checked').value;
    var confirm = document.getElementById("pay-confirm");
    var entry = paying;
    confirm.disabled = true;
    Tourney.fetchJSON(apiBase() + "/results/" + entry + "/pay", { method: "POST", body: { method: method } }).then(function (paid) {
      dialog.close();
      Tourney.toast(t("paid", "Prize paid: %(amount)s", { amount: money(-paid.amount) }), {
        kind: "ok",
        undoUrl: apiBase() + "/results/" + entry + "/pay/undo",
        link: { href: paid.receipt_url + "?print=1", label: t("receipt", "Receipt") },
      });
      afterCage();
    }, function (err) {
      confirm.disabled = false;
      var error = document.getElementById("pay-error");
      error.textContent = err.detail || err.message;
      error.hidden = false;
    });
  }

  document.addEventListener("submit", function (e) {
    if (!e.target || e.target.id !== "pay-form") return;
    e.preventDefault();
    confirmPay();
  });

  document.body.addEventListener("tourney:undone", function (e) {
    var url = (e.detail && e.detail.url) || "";
    if (url.indexOf("/pay/undo") !== -1) afterCage();
  });

  document.addEventListener("click", function (e) {
    var pay = e.target.closest && e.target.closest("[data-pay-prize]");
    if (pay && !pay.disabled) { openPay(pay); return; }
    if (e.target.closest && e.target.closest("[data-pay-cancel]")) { document.getElementById("pay-dialog").close(); return; }
    var payUndo = e.target.closest && e.target.closest("[data-pay-undo]");
    if (payUndo && !payUndo.disabled) {
      payUndo.disabled = true;
      Tourney.fetchJSON(apiBase() + "/results/" + payUndo.getAttribute("data-pay-undo") + "/pay/undo", { method: "POST", body: {} })
        .then(function (back) {
          Tourney.toast(t("payUndone", "Prize payment undone: %(amount)s back at the cage", { amount: money(back.amount) }), { kind: "ok" });
          afterCage();
        }, function (err) { payUndo.disabled = false; failed(err); });
      return;
    }
    var undo = e.target.closest && e.target.closest("[data-deal-undo]");
    if (undo && !undo.disabled) {
      undo.disabled = true;
      Tourney.fetchJSON(apiBase() + "/deals/" + undo.getAttribute("data-deal-undo") + "/undo", { method: "POST", body: {} })
        .then(function () {
          Tourney.toast(t("dealUndone", "Deal undone: prizes by place again"), { kind: "ok" });
          refresh();
        }, function (err) { undo.disabled = false; failed(err); });
    }
  });

  /* ------------------------------------------------------------ the deal */

  var timer = null;
  var seq = 0;

  function dealForm() { return document.getElementById("deal-form"); }

  function rows(form) { return Array.prototype.slice.call(form.querySelectorAll("tr[data-entry]")); }

  function body(form, withAmounts) {
    var method = form.querySelector('input[name="method"]:checked');
    var data = {
      method: method ? method.value : "icm",
      left_to_play: digits(form.querySelector("#deal-left").value) || 0,
      stacks: rows(form).map(function (tr) {
        return { entry_id: Number(tr.getAttribute("data-entry")), stack: digits(tr.querySelector('input[name="stack"]').value) };
      }),
    };
    if (withAmounts) {
      data.amounts = rows(form).map(function (tr) {
        return { entry_id: Number(tr.getAttribute("data-entry")), amount: digits(tr.querySelector('input[name="amount"]').value) || 0 };
      });
    }
    return data;
  }

  function edited(form) {
    return rows(form).some(function (tr) { return tr.querySelector('input[name="amount"]').hasAttribute("data-edited"); });
  }

  function show(form, id, text) {
    var el = form.querySelector("#" + id);
    if (!el) return;
    el.textContent = text || "";
    el.hidden = !text;
  }

  function preview() {
    var form = dealForm();
    if (!form) return;
    var data = body(form, edited(form));
    var confirm = form.querySelector("#deal-confirm");
    if (data.stacks.some(function (s) { return s.stack === null; })) {
      confirm.disabled = true;
      show(form, "deal-error", "");
      form.querySelector("#deal-total").textContent = t("enterStacks", "Enter every player's chips.");
      return;
    }
    var mine = ++seq;
    Tourney.fetchJSON(form.getAttribute("data-preview-url"), { method: "POST", body: data }).then(function (q) {
      if (mine !== seq) return;
      q.shares.forEach(function (s) {
        var input = form.querySelector('tr[data-entry="' + s.entry_id + '"] input[name="amount"]');
        if (input && !input.hasAttribute("data-edited") && document.activeElement !== input) input.value = fmt(s.amount);
        if (input) input.setAttribute("placeholder", fmt(s.computed));
      });
      form.querySelector("#deal-total").textContent = t("shared", "Shared: %(pool)s", { pool: fmt(q.pool) }) +
        (q.left_to_play ? " · " + t("left", "left to play for: %(left)s", { left: fmt(q.left_to_play) }) : "") +
        (q.exact ? "" : " · " + t("estimate", "ICM estimate, at most %(err)s off", { err: fmt(Math.ceil(q.max_error)) }));
      show(form, "deal-warning", (q.warnings || []).join(" "));
      show(form, "deal-error", "");
      confirm.disabled = false;
      form.setAttribute("data-method", q.method);
    }, function (err) {
      if (mine !== seq) return;
      confirm.disabled = true;
      show(form, "deal-error", err.detail || err.message);
    });
  }

  function schedule() {
    window.clearTimeout(timer);
    timer = window.setTimeout(preview, 250);
  }

  document.addEventListener("input", function (e) {
    var form = e.target && e.target.closest && e.target.closest("#deal-form");
    if (!form) return;
    if (e.target.name === "amount") e.target.setAttribute("data-edited", "1");
    if (e.target.name === "method") {
      // Another calculator: its amounts replace the ones typed by hand.
      form.querySelectorAll('input[name="amount"]').forEach(function (i) { i.removeAttribute("data-edited"); i.value = ""; });
    }
    schedule();
  });
  document.addEventListener("change", function (e) {
    if (e.target && e.target.name === "method" && e.target.closest("#deal-form")) schedule();
  });

  // Enter moves down the chips column, as in the structure editors.
  document.addEventListener("keydown", function (e) {
    var input = e.target;
    if (e.key !== "Enter" || !input.closest || !input.closest("#deal-form") || !/^(stack|amount)$/.test(input.name)) return;
    var tr = input.closest("tr");
    var next = tr && tr.nextElementSibling && tr.nextElementSibling.querySelector('input[name="' + input.name + '"]');
    if (next) { e.preventDefault(); next.focus(); next.select(); }
  });

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form || form.id !== "deal-form") return;
    e.preventDefault();
    var confirm = form.querySelector("#deal-confirm");
    confirm.disabled = true;
    var url = form.getAttribute("data-url");
    Tourney.fetchJSON(url, { method: "POST", body: body(form, true) }).then(function (deal) {
      var dialog = form.closest("dialog");
      if (dialog) dialog.close();
      // Undo at once instead of "are you sure?" (floor.js refreshes on "tourney:undone").
      Tourney.toast(t("dealMade", "Deal made: the amounts are the players' prizes"), {
        kind: "ok",
        undoUrl: url + "/" + deal.id + "/undo",
      });
      refresh();
    }, function (err) {
      confirm.disabled = false;
      show(form, "deal-error", err.detail || err.message);
    });
  });

  // The dialog opens with the form reset (floor.js): ask for the stacks, first field focused.
  document.addEventListener("click", function (e) {
    if (!e.target.closest || !e.target.closest("#deal-open")) return;
    window.setTimeout(function () {
      var form = dealForm();
      if (!form) return;
      form.querySelectorAll('input[name="amount"]').forEach(function (i) { i.removeAttribute("data-edited"); });
      var first = form.querySelector('input[name="stack"]');
      if (first) first.focus();
      preview();
    }, 0);
  });
})(window, document);
