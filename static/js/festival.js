/*!
 * festival.js: the festival's screens (templates/clocks/festival/): the room's lobby board
 * (every live tournament on one TV) and the director's overview (with the floor's pending
 * actions and the alerts). One card per tournament; each card's clock is a Tourney.liveClock
 * counting from the server's time, flipping at zero from the structure it holds, and following
 * its tournament's event stream (the row's `events_url`; the browser resumes a dropped stream
 * with Last-Event-ID, as the lobby screens do). Any other event (a bust-out, an entry, a floor
 * action, a clock call) refetches the state, once for a burst. Browsers allow six connections
 * per host over HTTP/1.1: the first STREAMS_MAX cards stream, the others (and everything,
 * while a stream is down) follow a quick poll; with every card streaming, a slow poll is only
 * the fallback.
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney;
  var config = JSON.parse(document.getElementById("festival-config").textContent);
  var S = config.strings;
  var box = document.querySelector('[data-field="cards"]');
  var cards = {};
  var STREAMS_MAX = 5; // one connection of the six left for the state's fetches
  var QUICK_POLL_MS = 5000; // a card without a live stream
  var SLOW_POLL_MS = 60000; // every card streaming: the fallback only
  var BURST_MS = 300; // events within this window: one refetch
  var api = (window.TourneyFestival = { fetches: 0, events: 0 });

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

  /** An element of the card that the renders fill: `data-f` names it. */
  function part(card, tag, cls, name) {
    var e = el(tag, cls);
    e.dataset.f = name;
    card.appendChild(e);
    return e;
  }

  function build(row) {
    var card = el("article", "fb-card");
    card.dataset.tournament = row.id;
    card.appendChild(el("h2", "fb-name", row.name));
    part(card, "p", "fb-level", "level");
    part(card, "p", "fb-countdown num", "countdown");
    part(card, "p", "fb-blinds num", "blinds");
    part(card, "p", "fb-ante num", "ante");
    part(card, "p", "fb-next", "next");
    var dl = el("dl", "fb-stats");
    dl.appendChild(stat(S.players, "players"));
    dl.appendChild(stat(S.average, "average"));
    dl.appendChild(stat(S.pool, "pool"));
    card.appendChild(dl);
    if (config.overview) {
      part(card, "p", "fb-floor", "floor");
      part(card, "ul", "fb-alerts", "alerts");
      var link = el("a", "btn btn-secondary btn-sm", S.console);
      link.href = config.console_url.replace("/0/", "/" + row.id + "/");
      card.appendChild(link);
    }
    return { card: card, row: row, live: null, url: null, online: false };
  }

  /** The card's live clock, on its tournament's stream when it has one of the few. */
  function follow(entry, row, streamed) {
    var url = streamed ? row.events_url : null;
    if (entry.live && entry.url === url) return;
    if (entry.live) entry.live.stop();
    entry.url = url;
    entry.online = false;
    entry.live = Tourney.liveClock({
      clock: row.clock,
      periods: row.periods,
      eventsUrl: url,
      reportOnline: false,
      kinds: ["clock_call", "hand_for_hand", "penalty", "deal", "absent", "arrived"],
      onRender: function (view) { renderClock(entry, view); },
      onEvent: function (kind) {
        if (kind === "ready") return;
        api.events += 1;
        refetchSoon();
      },
      onStatus: function (online) {
        entry.online = online;
        if (online) refetchSoon(); // back after a drop: the figures missed meanwhile
        showOnline();
        schedulePoll();
      },
    });
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
    var level = p.kind === "level";
    set(entry.card, "blinds", level ? num(p.small_blind) + " / " + num(p.big_blind) : "");
    // named, not "(50 000)" after the blinds: a player across the room asked what it was
    set(entry.card, "ante", level && p.ante ? fmt(p.big_blind_ante ? S.bb_ante : S.ante, { n: num(p.ante) }) : "");
    var n = view.next_period;
    set(entry.card, "next", n ? fmt(S.next, { what: n.kind === "break" ? S["break"] : num(n.small_blind) + " / " + num(n.big_blind) }) : "");
    entry.card.classList.toggle("is-paused", view.status === "paused");
    entry.card.classList.toggle("is-pending", view.status === "pending");
    entry.card.classList.toggle("is-last-minute", !!view.last_minute);
  }

  function renderRow(entry, row, streamed) {
    entry.row = row;
    follow(entry, row, streamed);
    entry.live.setClock(row.clock);
    var c = entry.card;
    // A sit-and-go filling: its seats taken of its table's ("7/9").
    set(c, "players", num(row.stats.players_remaining) + (row.seats && row.status === "registering" ? "/" + num(row.seats) : ""));
    set(c, "average", num(row.stats.average_stack));
    set(c, "pool", Tourney.formatMoney(row.stats.prize_pool, row.money));
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
    state.tournaments.forEach(function (row, index) {
      seen[row.id] = true;
      var entry = cards[row.id];
      if (!entry) {
        entry = cards[row.id] = build(row);
      }
      box.appendChild(entry.card); // keeps the server's order
      renderRow(entry, row, index < STREAMS_MAX && !!row.events_url);
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
    renderSeries(state.series || []);
  }

  /** Sit-and-gos: each series' event filling ("7/9"), how many run, its last winners. */
  function renderSeries(series) {
    var box = document.querySelector('[data-field="sng"]');
    var list = document.querySelector('[data-field="sng-list"]');
    if (!box || !list) return;
    box.hidden = !series.length;
    list.textContent = "";
    series.forEach(function (s) {
      var li = el("li", "fb-sng-row", "");
      li.appendChild(el("span", "fb-sng-name", s.name));
      var facts = [fmt(S.sng_filling, { n: s.filling, total: s.seats })];
      if (s.running) facts.push(fmt(S.sng_running, { n: s.running }));
      if (s.winners.length) facts.push(fmt(S.sng_winners, { names: s.winners.join(", ") }));
      li.appendChild(el("span", "fb-sng-facts", facts.join(" · ")));
      list.appendChild(li);
    });
  }

  /* ------------------------------------------------------------ the state: on events, and a poll */

  var fetching = null;
  var again = false;
  var burst = null;
  var pollTimer = null;
  var fetchOk = true;

  function streamsUp() {
    var ids = Object.keys(cards);
    return ids.length > 0 && ids.every(function (id) { return cards[id].url && cards[id].online; });
  }

  function showOnline() {
    Tourney.setOnline(fetchOk && Object.keys(cards).every(function (id) {
      return !cards[id].url || cards[id].online;
    }));
  }

  function refetch() {
    if (fetching) {
      again = true;
      return fetching;
    }
    api.fetches += 1;
    fetching = Tourney.fetchJSON(config.state_url).then(
      function (state) {
        fetchOk = true;
        render(state);
      },
      function () { fetchOk = false; }
    ).then(function () {
      fetching = null;
      showOnline();
      schedulePoll();
      if (again) {
        again = false;
        refetch();
      }
    });
    return fetching;
  }

  function refetchSoon() {
    if (burst) return;
    burst = window.setTimeout(function () {
      burst = null;
      refetch();
    }, BURST_MS);
  }

  function schedulePoll() {
    window.clearTimeout(pollTimer);
    pollTimer = window.setTimeout(refetch, streamsUp() ? SLOW_POLL_MS : QUICK_POLL_MS);
  }
  api.refetch = refetch;
  api.streaming = function () {
    return Object.keys(cards).filter(function (id) { return cards[id].url && cards[id].online; }).length;
  };

  render(JSON.parse(document.getElementById("festival-state").textContent));
  if (Tourney.serverClock.start) Tourney.serverClock.start();
  schedulePoll();
})(window, document);
