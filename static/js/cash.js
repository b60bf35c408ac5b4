/* cash.js: the cash floor's page and its lobby TV (templates/tables/cash/). The calls' time
   left counts down from each call's end (data-expires-at, epoch ms) by this screen's clock;
   the page reloads itself when the room's cash events move (a version read every few
   seconds), unless the floor is typing in one of its fields. */
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("cash-config").textContent);
  var POLL_MS = 3000;

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-expires-at]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Number(el.dataset.expiresAt) - now) / 1000));
      el.textContent = Math.floor(left / 60) + ":" + pad(left % 60);
      el.classList.toggle("is-up", left === 0);
      el.classList.toggle("is-closing", left > 0 && left <= 60);
    });
  }
  tick();
  window.setInterval(tick, 500);

  function busy() {
    var el = document.activeElement;
    if (el && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName)) return true;
    return !!document.querySelector("details[open]");
  }
  var banner = document.getElementById("offline-banner");
  function poll() {
    fetch(config.version_url, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) {
        if (banner) banner.hidden = true;
        if (data.version !== config.version && !busy()) {
          var y = window.scrollY;
          sessionStorage.setItem("cash-scroll", String(y));
          window.location.reload();
        }
      })
      .catch(function () { if (banner) banner.hidden = false; })
      .finally(function () { window.setTimeout(poll, POLL_MS); });
  }
  var kept = sessionStorage.getItem("cash-scroll");
  if (kept !== null) { sessionStorage.removeItem("cash-scroll"); window.scrollTo(0, Number(kept)); }
  window.setTimeout(poll, POLL_MS);
})();
