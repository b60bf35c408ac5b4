/*!
 * desk-refund.js: money with a safety net at the desk (after tourney.js; no build step).
 *
 *   [data-refund-url] (a Refund button on any listed entry) opens #refund-dialog with the
 *   player, the amount as the venue writes it and the method paid (data-refund-name,
 *   -amount, -method); the confirm button has the focus: Enter refunds, Escape cancels. The
 *   form posts to the button's URL (tourney.registration.views.desk_refund).
 *   [data-undo-refund=<api url>] takes a refund back (POST), then the page reloads; so does an
 *   Undo in a toast ("tourney:undone").
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney || (window.Tourney = {});
  var dialog = document.getElementById("refund-dialog");

  function open(button) {
    var form = document.getElementById("refund-form");
    form.setAttribute("action", button.getAttribute("data-refund-url"));
    document.getElementById("refund-name").textContent = button.getAttribute("data-refund-name");
    document.getElementById("refund-amount").textContent = button.getAttribute("data-refund-amount");
    var method = button.getAttribute("data-refund-method") || "cash";
    form.querySelectorAll('input[name="method"]').forEach(function (radio) {
      radio.checked = radio.value === method;
    });
    dialog.showModal();
    document.getElementById("refund-confirm").focus();
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-refund-url]");
    if (button && dialog) { e.preventDefault(); open(button); return; }
    if (e.target.closest && e.target.closest("[data-refund-cancel]")) { dialog.close(); return; }
    var undo = e.target.closest && e.target.closest("[data-undo-refund]");
    if (undo && !undo.disabled) {
      undo.disabled = true;
      Tourney.fetchJSON(undo.getAttribute("data-undo-refund"), { method: "POST", body: {} }).then(
        function () { window.location.assign(window.location.pathname); },
        function (err) { undo.disabled = false; Tourney.toast(err.detail || err.message, { kind: "bad" }); }
      );
    }
  });

  document.body.addEventListener("tourney:undone", function (e) {
    var url = (e.detail && e.detail.url) || "";
    if (url.indexOf("/refund/undo") !== -1) window.location.assign(window.location.pathname);
  });

  Tourney.deskRefund = { open: open };
})(window, document);
