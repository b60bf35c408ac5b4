// The console's warning when something is down: polls GET /api/v1/health and says so when the
// database does not answer (503), when Redis does not, or when the clock's timers are late
// (`late_timers` lists running clocks whose stored period ended over 2 s ago: which
// tournament is behind and what to check). Polling, not the event stream: a dead timer sends no
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

  const title = box.querySelector("[data-timers-title]");

  function say(kind, message, advice) {
    title.textContent = box.dataset["title" + kind];
    text.textContent = message;
    hint.textContent = advice;
    box.hidden = false;
  }

  function show(health) {
    const late = health.late_timers || [];
    // What is down first: with the database down nothing else can be known.
    if (health.database === "down") {
      say("Database", box.dataset.database, box.dataset.hintDatabase);
      return;
    }
    if (health.timers !== "late" || late.length === 0) {
      if (health.broker === "down") say("Broker", box.dataset.broker, box.dataset.hintBroker);
      else box.hidden = true;
      return;
    }
    const mine = late.find((t) => t.tournament_id === tournament);
    const worst = mine || late[0];
    const seconds = number.format(Math.floor(worst.late_ms / 1000));
    say(
      "Timers",
      (mine ? box.dataset.this : box.dataset.other).replace("__SECONDS__", seconds),
      health.broker === "down" ? box.dataset.hintBroker
        : health.broker === "absent" ? box.dataset.hintEmbedded
          : box.dataset.hintWorkers,
    );
  }

  async function check() {
    try {
      const response = await fetch(box.dataset.healthUrl, { cache: "no-store" });
      // 503 while the database is down: its body says so.
      if (response.ok || response.status === 503) show(await response.json());
    } catch (error) {
      // Server unreachable: the clock strip already says the console is offline.
    } finally {
      window.setTimeout(check, every);
    }
  }
  check();
})();
