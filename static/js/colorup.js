/*!
 * colorup.js: the chip-race page (templates/clocks/_colorup_table.html). Plain script after
 * floor.js; the page's parts are refetched by floor.js, so everything here is delegated.
 *   - .stepper [data-step="-1"|"1"]: one odd chip less / more (within the input's min..max),
 *     then an "input" event so htmx refreshes the plan.
 *   - [data-colorup-entry="cards"|"virtual"]: type the real cards, or let the system deal;
 *     #colorup-form[data-entry] and its entry_mode field follow.
 *   - after the plan (#colorup-plan) arrives: a cards field for each seat that is dealt
 *     (data-cards-needed), with the number of cards as its placeholder.
 *   - counts typed mark the form [data-floor-busy]: an event from another table does not
 *     refetch it and wipe them (floor.js waits); sending it releases the mark.
 */
(function (window, document) {
  "use strict";

  var T = function (key, fallback) { return (window.Tourney.i18n && window.Tourney.i18n[key]) || fallback; };

  document.addEventListener("click", function (e) {
    var step = e.target.closest && e.target.closest(".stepper [data-step]");
    if (step) {
      var input = step.parentNode.querySelector("input");
      var min = Number(input.min || 0);
      var max = input.max === "" ? Infinity : Number(input.max);
      var value = Math.min(max, Math.max(min, (Number(input.value) || 0) + Number(step.getAttribute("data-step"))));
      if (String(value) !== input.value) {
        input.value = String(value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
      return;
    }
    var entry = e.target.closest && e.target.closest("[data-colorup-entry]");
    if (entry) setEntry(entry.closest("form"), entry.getAttribute("data-colorup-entry"));
  });

  function setEntry(form, mode) {
    if (!form) return;
    form.setAttribute("data-entry", mode);
    form.querySelector('input[name="entry_mode"]').value = mode;
    Array.prototype.forEach.call(form.querySelectorAll(".for-cards"), function (el) {
      if (!el.classList.contains("colorup-cards")) el.hidden = mode !== "cards";
    });
    Array.prototype.forEach.call(form.querySelectorAll(".not-cards"), function (el) {
      el.hidden = mode === "cards";
    });
    showCardFields(form);
    form.dispatchEvent(new Event("change", { bubbles: true }));
    if (mode === "cards") {
      var first = form.querySelector(".colorup-cards:not([hidden]) input");
      if (first) first.focus();
    }
  }

  function showCardFields(form) {
    var body = form.querySelector("#colorup-plan .colorup-plan-body");
    var needed = {};
    try { needed = JSON.parse((body && body.getAttribute("data-cards-needed")) || "{}"); } catch (err) { needed = {}; }
    var cards = form.getAttribute("data-entry") === "cards";
    Array.prototype.forEach.call(form.querySelectorAll("li.colorup-seat"), function (li) {
      var box = li.querySelector(".colorup-cards");
      var n = needed[li.getAttribute("data-seat")] || 0;
      if (!box) return;
      box.hidden = !(cards && n);
      var input = box.querySelector("input");
      if (n) input.placeholder = n === 1 ? T("colorupOneCard", "1 card, e.g. Kh") : T("colorupCards", "%(n)s cards, e.g. Kh 9d").replace(/%+\(n\)s/, n);
    });
  }

  /* A form with counts typed is not refetched under the dealer's fingers (floor.js waits
   * while [data-floor-busy] is set); it is released once the form was sent, or emptied. */
  function markBusy(form) {
    var typed = Array.prototype.some.call(form.querySelectorAll("input[name^='odd_'], input[name^='stack_'], input[name^='cards_'], input[name^='zero_']"), function (input) {
      return input.type === "checkbox" ? input.checked : input.value && input.value !== "0";
    });
    if (typed) form.setAttribute("data-floor-busy", "1");
    else release(form);
  }

  function release(form) {
    if (!form.hasAttribute("data-floor-busy")) return;
    form.removeAttribute("data-floor-busy");
    var part = form.closest("[data-floor-deferred]");
    if (part && window.Tourney.floor) window.Tourney.floor.refresh("*");
  }

  document.addEventListener("input", function (e) {
    var form = e.target.closest && e.target.closest("#colorup-form");
    if (form) markBusy(form);
  });
  document.addEventListener("change", function (e) {
    var form = e.target.closest && e.target.closest("#colorup-form");
    if (form && e.target.type === "checkbox") markBusy(form);
  });
  // floor.js refreshes the page's parts after a form succeeds (debounced): let it.
  document.addEventListener("floor:done", function (e) {
    var form = document.getElementById("colorup-form");
    if (form && e.detail && e.detail.ok) release(form);
  });

  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.target && e.target.id === "colorup-plan") showCardFields(e.target.closest("form"));
  });
})(window, document);
