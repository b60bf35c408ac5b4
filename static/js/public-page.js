// The public page: the level's time counts down in the reader's browser, and the page asks
// for itself again now and then (the proxy answers with 304 until something changed).
(function () {
  "use strict";
  const time = document.querySelector(".pub-time");
  function show(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const mm = h ? String(m).padStart(2, "0") : String(m);
    time.textContent = (h ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
  }
  if (time) {
    const endsAt = Number(time.dataset.endsAt || 0);
    const remaining = Number(time.dataset.remaining || 0);
    if (time.dataset.status === "running" && endsAt) {
      const tick = () => show(endsAt - Date.now());
      tick();
      setInterval(tick, 1000);
    } else {
      show(remaining);
    }
  }
  const every = Number(document.body.dataset.reloadSeconds || 30);
  setTimeout(() => location.reload(), every * 1000);
})();
