/*!
 * undo-list.js: Undo on any listed action (after tourney.js; no build step).
 *
 *   button[data-row-undo=<api url>] (the console's activity panel and finished list, the audit
 *   log; tourney/audit/selectors.py says which) POSTs there. Done: a toast, the button becomes
 *   "Undone", "tourney:undone" fires (the console's parts refetch on the events anyway).
 *   Refused: the server's sentence (why not: a deal made since, play moved on...) in a toast.
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney || (window.Tourney = {});

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-row-undo]");
    if (!button || button.disabled) return;
    // an undo with wide effects (the seat draw) asks first: data-confirm
    if (button.hasAttribute("data-confirm") && !window.confirm(button.getAttribute("data-confirm"))) return;
    var url = button.getAttribute("data-row-undo");
    button.disabled = true;
    Tourney.fetchJSON(url, { method: "POST", body: {} }).then(function (data) {
      Tourney.toast(Tourney.i18n.undone, { kind: "ok" });
      var badge = document.createElement("span");
      badge.className = "badge";
      badge.setAttribute("data-undone", "");
      badge.textContent = Tourney.i18n.undone;
      button.replaceWith(badge);
      document.body.dispatchEvent(new CustomEvent("tourney:undone", { bubbles: true, detail: { url: url, data: data } }));
    }, function (err) {
      button.disabled = false;
      Tourney.toast(Tourney.i18n.undoFailed + ": " + (err.detail || err.message), { kind: "bad" });
    });
  });
})(window, document);
