/*!
 * festival.js: the festival's screens (templates/clocks/festival/): the room's lobby board
 * (every live tournament on one TV) and the director's overview (with the floor's pending
 * actions and the alerts). One card per tournament; each card's clock is a Tourney.liveClock
 * counting from the server's time, flipping at zero from the structure it holds; the state is
 * refetched every few seconds (a board of many tournaments holds no event stream per
 * tournament: browsers allow six connections per host).
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney;
  var config = JSON.parse(document.getElementById("festival-config").textContent);
  var S = config.strings;
  var box = document.querySelector('[data-field="cards"]');
  var cards = {};
  var POLL_MS = 5000;

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) {
      return values[key] === undefined || values[key] === null ? "" : values[key];
    });
  }

  function num(n) {
    return Tourney.formatNumber(n);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function stat(label, field) {
    var d = el("div");
    d.appendChild(el("dt", "", label));
    var dd = el("dd", "num");
    dd.dataset.f = field;
    d.appendChild(dd);
    return d;
  }

  function build(row) {
    var card = el("article", "fb-card");
    card.dataset.tournament = row.id;
    var head = el("h2", "fb-name", row.name);
    card.appendChild(head);
    var level = el("p", "fb-level");
    level.dataset.f = "level";
    card.appendChild(level);
    var countdown = el("p", "fb-countdown num");
    countdown.dataset.f = "countdown";
    card.appendChild(countdown);
    var blinds = el("p", "fb-blinds num");
    blinds.dataset.f = "blinds";
    card.appendChild(blinds);
    var next = el("p", "fb-next");
    next.dataset.f = "next";
    card.appendChild(next);
    var dl = el("dl", "fb-stats");
    dl.appendChild(stat(S.players, "players"));
    dl.appendChild(stat(S.average, "average"));
    dl.appendChild(stat(S.pool, "pool"));
    card.appendChild(dl);
    if (config.overview) {
      var floor = el("p", "fb-floor");
      floor.dataset.f = "floor";
      card.appendChild(floor);
      var alerts = el("ul", "fb-alerts");
      alerts.dataset.f = "alerts";
      card.appendChild(alerts);
      var link = el("a", "btn btn-secondary btn-sm", S.console);
      link.href = config.console_url.replace("/0/", "/" + row.id + "/");
      card.appendChild(link);
    }
    var entry = { card: card, row: row };
    entry.live = Tourney.liveClock({
      clock: row.clock,
      periods: row.periods,
      reportOnline: false,
      onRender: function (view) { renderClock(entry, view); },
    });
    return entry;
  }

  function set(card, field, text) {
    var e = card.querySelector('[data-f="' + field + '"]');
    if (e && e.textContent !== text) e.textContent = text;
    return e;
  }

  function renderClock(entry, view) {
    var p = view.period || {};
    var title = view.status === "finished" ? S.finished
      : p.kind === "break" ? S["break"]
      : fmt(S.level, { n: view.level || "" });
    if (view.status === "paused") title += " · " + S.paused;
    if (view.status === "pending") title += " · " + S.pending;
    set(entry.card, "level", title);
    set(entry.card, "countdown", view.text);
    set(entry.card, "blinds", p.kind === "level" ? num(p.small_blind) + " / " + num(p.big_blind) + (p.ante ? " (" + num(p.ante) + ")" : "") : "");
    var n = view.next_period;
    set(entry.card, "next", n ? fmt(S.next, { what: n.kind === "break" ? S["break"] : num(n.small_blind) + " / " + num(n.big_blind) }) : "");
    entry.card.classList.toggle("is-paused", view.status === "paused");
    entry.card.classList.toggle("is-last-minute", !!view.last_minute);
  }

  function renderRow(entry, row) {
    entry.row = row;
    entry.live.setClock(row.clock);
    var c = entry.card;
    set(c, "players", num(row.stats.players_remaining));
    set(c, "average", num(row.stats.average_stack));
    set(c, "pool", num(row.stats.prize_pool) + " " + row.currency);
    if (!config.overview) return;
    var floor = set(c, "floor", row.pending_actions ? fmt(S.pending_actions, { n: row.pending_actions }) : S.nothing_pending);
    floor.classList.toggle("is-warn", row.pending_actions > 0);
    var list = c.querySelector('[data-f="alerts"]');
    list.textContent = "";
    row.alerts.forEach(function (a) {
      var text = a.kind === "timers_late" ? fmt(S.timers_late, { s: Math.round(a.late_ms / 1000) })
        : a.kind === "clock_calls" ? fmt(S.clock_calls, { n: a.count })
        : S[a.kind] || a.kind;
      list.appendChild(el("li", "fb-alert is-" + a.kind, text));
    });
  }

  function render(state) {
    var seen = {};
    state.tournaments.forEach(function (row) {
      seen[row.id] = true;
      var entry = cards[row.id];
      if (!entry) {
        entry = cards[row.id] = build(row);
      }
      box.appendChild(entry.card); // keeps the server's order
      renderRow(entry, row);
    });
    Object.keys(cards).forEach(function (id) {
      if (!seen[id]) {
        cards[id].live.stop();
        cards[id].card.remove();
        delete cards[id];
      }
    });
    var empty = box.querySelector(".fb-empty");
    if (!state.tournaments.length && !empty) box.appendChild(el("p", "fb-empty", S.none));
    if (state.tournaments.length && empty) empty.remove();
    document.body.dataset.cards = String(state.tournaments.length);
  }

  function poll() {
    Tourney.fetchJSON(config.state_url).then(
      function (state) {
        Tourney.setOnline(true);
        render(state);
      },
      function () { Tourney.setOnline(false); }
    ).then(function () { window.setTimeout(poll, POLL_MS); });
  }

  render(JSON.parse(document.getElementById("festival-state").textContent));
  if (Tourney.serverClock.start) Tourney.serverClock.start();
  window.setTimeout(poll, POLL_MS);
})(window, document);
