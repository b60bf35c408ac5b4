// The console's warning when the clock's timers are late: polls GET /api/v1/health (whose
// `late_timers` lists running clocks whose stored period ended over 2 s ago) and shows which
// tournament is behind and what to check. Polling, not the event stream: a dead timer sends no
// events. Strings come translated from templates/clocks/_timers_health.html.
(function () {
  "use strict";
  const box = document.getElementById("timers-health");
  if (!box) return;
  const tournament = Number(box.dataset.tournament);
  const every = Number(box.dataset.everyMs) || 5000;
  const text = box.querySelector("[data-timers-text]");
  const hint = box.querySelector("[data-timers-hint]");
  const number = new Intl.NumberFormat(document.documentElement.lang || undefined);

  function show(health) {
    const late = health.late_timers || [];
    if (health.timers !== "late" || late.length === 0) {
      box.hidden = true;
      return;
    }
    const mine = late.find((t) => t.tournament_id === tournament);
    const worst = mine || late[0];
    const seconds = number.format(Math.floor(worst.late_ms / 1000));
    text.textContent = (mine ? box.dataset.this : box.dataset.other).replace("__SECONDS__", seconds);
    hint.textContent =
      health.broker === "down" ? box.dataset.hintBroker
        : health.broker === "absent" ? box.dataset.hintEmbedded
          : box.dataset.hintWorkers;
    box.hidden = false;
  }

  async function check() {
    try {
      const response = await fetch(box.dataset.healthUrl, { cache: "no-store" });
      if (response.ok) show(await response.json());
    } catch (error) {
      // Server unreachable: the clock strip already says the console is offline.
    } finally {
      window.setTimeout(check, every);
    }
  }
  check();
})();
