/* cash-clock.js: the cash clock on a cash table's dealer page (docs/rules.md §20.6, Mirage):
   a player thinking since "start"; after the house's clock_after seconds the clock may be
   called; once called he has clock_seconds, then his hand is dead. The times are kept in the
   tab's storage, so the page's own reloads (cash.js) do not lose a clock running. */
(function () {
  "use strict";
  var box = document.getElementById("cash-clock");
  if (!box) return;
  var config = JSON.parse(document.getElementById("cash-config").textContent);
  var S = JSON.parse(document.getElementById("cash-clock-strings").textContent);
  var key = "cash-clock-" + box.dataset.table;
  var time = box.querySelector("[data-clock-time]");
  var phase = box.querySelector("[data-clock-phase]");
  var callButton = box.querySelector('[data-clock="call"]');

  function load() { try { return JSON.parse(sessionStorage.getItem(key)) || {}; } catch (e) { return {}; } }
  function save(state) { sessionStorage.setItem(key, JSON.stringify(state)); }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function show(seconds) { time.textContent = Math.floor(seconds / 60) + ":" + pad(seconds % 60); }

  function tick() {
    var state = load(), now = Date.now(), left;
    box.classList.remove("is-thinking", "is-may-call", "is-called", "is-expired");
    if (!state.thinking) { time.textContent = "—"; phase.textContent = ""; callButton.disabled = true; return; }
    if (!state.called) {
      left = Math.ceil((state.thinking + config.clock_after * 1000 - now) / 1000);
      if (left > 0) { show(left); phase.textContent = S.thinking; box.classList.add("is-thinking"); callButton.disabled = true; }
      else { time.textContent = "0:00"; phase.textContent = S.may_call; box.classList.add("is-may-call"); callButton.disabled = false; }
      return;
    }
    callButton.disabled = true;
    left = Math.ceil((state.called + config.clock_seconds * 1000 - now) / 1000);
    if (left >= 0) { show(left); phase.textContent = S.called; box.classList.add("is-called"); }
    else { time.textContent = "0:00"; phase.textContent = S.expired; box.classList.add("is-expired"); }
  }
  box.addEventListener("click", function (event) {
    var button = event.target.closest("[data-clock]");
    if (!button) return;
    var what = button.dataset.clock;
    if (what === "think") save({ thinking: Date.now() });
    else if (what === "call") { var s = load(); s.called = Date.now(); save(s); }
    else save({});
    tick();
  });
  tick();
  window.setInterval(tick, 250);
})();
