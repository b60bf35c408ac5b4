/*!
 * cancelling.js: cancelling an event from the console, paying each entry back at the cage
 * (templates/tourney/cancelling/; docs/rules.md §18). After tourney.js; no build step.
 *
 *   #cancel-form posts {reason, settlement?} to its data-url after a confirm;
 *   [data-cancel-undo], [data-pay-back], [data-pay-back-undo] post to their URL.
 *   Each success reloads the page, which the server draws again as it now stands.
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney || (window.Tourney = {});

  function send(url, body, button) {
    if (button) button.disabled = true;
    return Tourney.fetchJSON(url, { method: "POST", body: body || {} }).then(
      function () { window.location.assign(window.location.pathname); },
      function (err) {
        if (button) button.disabled = false;
        Tourney.toast(err.detail || err.message, { kind: "bad" });
      }
    );
  }

  var form = document.getElementById("cancel-form");
  if (form) form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (!window.confirm(form.getAttribute("data-confirm"))) return;
    var body = { reason: form.elements.reason.value };
    var chosen = form.querySelector('input[name="settlement"]:checked');
    if (chosen) body.settlement = chosen.value;
    send(form.getAttribute("data-url"), body, document.getElementById("cancel-submit"));
  });

  document.addEventListener("click", function (e) {
    var target = e.target.closest && e.target.closest("[data-cancel-undo], [data-pay-back], [data-pay-back-undo]");
    if (!target || target.disabled) return;
    var url = target.getAttribute("data-cancel-undo") || target.getAttribute("data-pay-back") ||
      target.getAttribute("data-pay-back-undo");
    var question = target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) return;
    send(url, {}, target);
  });
})(window, document);
