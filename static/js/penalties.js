/*!
 * penalties.js: the penalty form on the console and the dealer page (templates/tourney/
 * _penalty_form.html). Plain script after tourney.js, htmx and floor.js; no build step.
 *
 *   - a player is picked from #penalty-results (button[data-penalty-entry]) or a seat radio
 *     (input[name=entry]); the player's earlier penalties then load into #penalty-history;
 *   - the sanction (input[name=kind]) shows its fields: rounds or hands (#penalty-count, with
 *     the "rounds x players = hands" preview), chips and ban for a disqualification;
 *   - after the floor's answer (floor:done ok) the form is cleared for the next one.
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney || (window.Tourney = {});

  function formOf(el) { return el && el.closest ? el.closest("form[data-penalty-form]") : null; }

  function kindOf(form) {
    var checked = form.querySelector('input[name="kind"]:checked');
    return checked ? checked.value : "";
  }

  function preview(form) {
    var line = form.querySelector("#penalty-preview");
    if (!line) return;
    var players = Number(form.getAttribute("data-players")) || 0;
    var count = Number((form.querySelector("#penalty-count") || {}).value) || 0;
    line.textContent = kindOf(form) === "missed_rounds" && players && count
      ? line.getAttribute("data-text-rounds")
        .replace("%(rounds)s", count).replace("%(players)s", players)
        .replace("%(hands)s", count * players)
      : "";
  }

  function showKind(form) {
    var kind = kindOf(form);
    Array.prototype.forEach.call(form.querySelectorAll("[data-for-kind]"), function (el) {
      el.hidden = el.getAttribute("data-for-kind").split(" ").indexOf(kind) < 0;
    });
    Array.prototype.forEach.call(form.querySelectorAll("[data-count-label]"), function (el) {
      el.hidden = el.getAttribute("data-count-label") !== kind;
    });
    var count = form.querySelector("#penalty-count");
    if (count) {
      var max = count.getAttribute("data-rounds-max");
      if (kind === "missed_rounds" && max) count.setAttribute("max", max);
      else count.removeAttribute("max");
      if (kind === "missed_hands" && count.getAttribute("data-fixed-hands") && !count.dataset.touched) {
        count.value = count.getAttribute("data-fixed-hands");
      }
    }
    var ban = form.querySelector("#penalty-ban");
    var days = form.querySelector("#penalty-ban-days");
    if (ban && days) days.hidden = ban.value !== "days" || kind !== "disqualification";
    preview(form);
  }

  function loadHistory(form, entryId) {
    var box = form.querySelector("#penalty-history");
    if (!box || !window.htmx) return;
    var url = form.getAttribute("data-history-url") + "?entry=" + encodeURIComponent(entryId);
    window.htmx.ajax("GET", url, { target: box, swap: "innerHTML" });
  }

  function pick(form, row) {
    var id = row.getAttribute("data-penalty-entry");
    form.querySelector("#penalty-entry").value = id;
    form.setAttribute("data-players", row.getAttribute("data-players") || "");
    var picked = form.querySelector("#penalty-picked");
    form.querySelector("#penalty-picked-name").textContent = row.getAttribute("data-name");
    form.querySelector("#penalty-picked-where").textContent = row.getAttribute("data-where");
    picked.hidden = false;
    var search = form.querySelector("#penalty-search");
    var results = form.querySelector("#penalty-results");
    if (search) search.value = "";
    if (results) results.innerHTML = "";
    loadHistory(form, id);
    preview(form);
    var reason = form.querySelector("#penalty-reason");
    if (reason) reason.focus();
  }

  function clear(form) {
    var kept = kindOf(form);
    form.reset();
    var entry = form.querySelector("#penalty-entry");
    if (entry) entry.value = "";
    var picked = form.querySelector("#penalty-picked");
    if (picked) picked.hidden = true;
    var box = form.querySelector("#penalty-history");
    if (box) box.innerHTML = "";
    form.removeAttribute("data-players");
    var same = form.querySelector('input[name="kind"][value="' + kept + '"]');
    if (same) same.checked = true;
    showKind(form);
  }

  document.addEventListener("click", function (e) {
    var row = e.target.closest && e.target.closest("[data-penalty-entry]");
    var form = formOf(row);
    if (row && form) { e.preventDefault(); pick(form, row); }
  });

  document.addEventListener("change", function (e) {
    var form = formOf(e.target);
    if (!form) return;
    if (e.target.name === "entry" && e.target.type === "radio") {
      form.setAttribute("data-players", e.target.getAttribute("data-players") || "");
      loadHistory(form, e.target.value);
    }
    if (e.target.id === "penalty-count") e.target.dataset.touched = "1";
    showKind(form);
  });
  document.addEventListener("input", function (e) {
    if (e.target && e.target.id === "penalty-count") preview(formOf(e.target));
  });

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || !e.target || e.target.id !== "penalty-search") return;
    e.preventDefault(); // Enter in the search box picks, it does not send the form
    var form = formOf(e.target);
    var first = form && form.querySelector("#penalty-results [data-penalty-entry]");
    if (first) pick(form, first);
  }, true);

  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    var form = elt && elt.matches && elt.matches("form[data-penalty-form]") ? elt : null;
    if (!form) return;
    var entry = form.querySelector('#penalty-entry, input[name="entry"]:checked');
    if (!entry || !entry.value) {
      e.preventDefault();
      Tourney.toast(form.getAttribute("data-choose-text") || "Choose the player first.", { kind: "warn" });
    }
  });

  document.addEventListener("floor:done", function (e) {
    var form = formOf(e.target);
    if (form && e.detail && e.detail.ok) clear(form);
  });

  document.addEventListener("htmx:afterSwap", function (e) {
    var form = e.target && e.target.querySelector && e.target.querySelector("form[data-penalty-form]");
    if (form) showKind(form);
  });
})(window, document);
