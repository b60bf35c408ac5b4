/*!
 * player-page.js: a player's own page (templates/tourney/player_page/page.html), opened from the
 * QR code on his seat card. Draws the state (GET /p/<token>/state.json), keeps the clock live
 * with Tourney.liveClock on the player's redacted stream (clock events, and `changed` for
 * everything else, on which the state is refetched), and when his seat changes shows a
 * full-width notice, vibrates, beeps and (when allowed) posts a notification.
 * The last state is kept in localStorage (and the service worker keeps the page) so that the
 * page shows where he sits even offline.
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney;
  var config = JSON.parse(document.getElementById("player-config").textContent);
  var S = config.strings;
  var state = JSON.parse(document.getElementById("player-state").textContent);
  var storeKey = "tourney.player." + state.player.entry_id;
  var api = (window.TourneyPlayer = { noticeShownAt: null, renders: 0 });

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) {
      return values[key] === undefined || values[key] === null ? "" : values[key];
    });
  }

  function num(n) {
    return Tourney.formatNumber(n);
  }

  function money(n) {
    // The server's pattern ("%(n)s\u00a0Ft"): Tourney.formatMoney, as every other page.
    return Tourney.formatMoney(n, state && state.tournament && state.tournament.money);
  }

  function field(name) {
    return document.querySelector('[data-field="' + name + '"]');
  }

  function setText(name, text) {
    var el = field(name);
    if (el && el.textContent !== text) el.textContent = text;
  }

  function remember(st) {
    try {
      window.localStorage.setItem(storeKey, JSON.stringify(st));
    } catch (e) { /* private mode: the service worker still has it */ }
  }

  function remembered() {
    try {
      return JSON.parse(window.localStorage.getItem(storeKey) || "null");
    } catch (e) {
      return null;
    }
  }

  /* ------------------------------------------------------------ the seat and the map */

  function renderMap(map) {
    var box = field("table-map");
    if (!map) {
      box.textContent = "";
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.setAttribute("aria-label", fmt(S.table_seat, { t: map.number, s: state.player.seat }));
    Tourney.tableMap(box, map.number, map.seats, function (seat) {
      var el = document.createElement("span");
      el.className =
        "pp-map-seat" + (seat.taken ? " is-taken" : "") + (seat.mine ? " is-mine" : "");
      el.textContent = seat.seat;
      el.title = seat.mine ? S.seat_mine : seat.taken ? S.seat_taken : S.seat_free;
      if (seat.button) el.setAttribute("data-button", "D");
      return el;
    }, "oval");
  }

  function renderSeat(player) {
    var seated = player.table !== null && player.seat !== null;
    var line = seated ? fmt(S.table_seat, { t: player.table, s: player.seat }) : "";
    if (!seated) {
      line = player.status === "waiting" ? S.waiting
        : player.status === "unregistered" ? S.unregistered
        : player.status === "active" ? S.not_drawn : "";
    }
    setText("seat", line);
    var coming = field("move-coming");
    coming.hidden = !player.move;
    if (player.move) {
      coming.textContent = fmt(S.move_coming, { t: player.move.to_table, s: player.move.to_seat });
    }
    renderMap(player.map);
    // Out, or the tournament over (the winner stays "active", a cancelled tournament's players
    // too): no seat to go to; his place and prize show instead (evening run: "Your seat:
    // table 1, seat 5" under the winner's 1st place).
    document.querySelector('[data-section="seat"]').hidden =
      player.status === "eliminated" || tournamentOver();
  }

  function tournamentOver() {
    var status = state && state.tournament && state.tournament.status;
    return status === "finished" || status === "cancelled";
  }

  /* ------------------------------------------------------------ result, payouts, receipts */

  function renderResult(result) {
    var section = document.querySelector('[data-section="result"]');
    section.hidden = !result;
    if (!result) return;
    // the winner won: "your tournament is over" read as a bust-out on the night
    setText("result-title", result.place === 1 && result.place_to === 1 ? S.winner_title : S.out_title);
    setText(
      "place",
      result.place_to !== result.place
        ? fmt(S.places, { p: result.place, to: result.place_to })
        : fmt(S.place, { p: result.place })
    );
    setText("prize", result.prize > 0 ? fmt(S.prize, { amount: money(result.prize) }) : S.no_prize);
    field("prize").classList.toggle("is-none", !(result.prize > 0)); // green only for a prize
    var collect = field("collect");
    collect.hidden = result.prize <= 0;
    collect.textContent = result.to_collect > 0 ? S.collect : S.collected;
  }

  // A cancelled tournament says so first, and what became of his buy-in (the cage's refunds
  // on his receipts); its clock, figures and payouts go: they describe a game not played
  // (evening run: the clock card still showed "Level 3" on a cancelled tournament).
  function renderCancelled(cancelled) {
    document.querySelector('[data-section="cancelled"]').hidden = !cancelled;
    ["clock", "stats", "payouts"].forEach(function (name) {
      document.querySelector('[data-section="' + name + '"]').hidden = !!cancelled;
    });
    if (!cancelled) return;
    setText("cancelled-reason", cancelled.reason || "");
    var paid = cancelled.paid, back = cancelled.back;
    setText(
      "cancelled-money",
      back > 0 ? fmt(cancelled.settled ? S.cancelled_settled : S.cancelled_back, { amount: money(back) })
        : paid > 0 ? fmt(S.cancelled_nothing, { paid: money(paid) }) : ""
    );
    field("cancelled-money").hidden = paid <= 0 && back <= 0;
  }

  function listItems(name, rows) {
    var list = field(name);
    list.textContent = "";
    rows.forEach(function (cells) {
      var li = document.createElement("li");
      cells.forEach(function (text, i) {
        var span = document.createElement("span");
        span.className = i === 0 ? "pp-list-label" : "pp-list-value";
        span.textContent = text;
        li.appendChild(span);
      });
      list.appendChild(li);
    });
  }

  function renderPayouts(rows) {
    listItems(
      "payouts",
      rows.filter(function (r) { return !r.gap; }).map(function (r) {
        var label = r.place_to !== r.place ? r.place + "–" + r.place_to + "." : r.place + ".";
        return [label, r.label || money(r.amount)];  // a satellite's seats read as seats
      })
    );
  }

  var PURPOSE = { entry: "entry", rebuy: "rebuy", addon: "addon", prize: "prize_receipt" };

  function renderReceipts(rows) {
    listItems(
      "receipts",
      rows.map(function (r) {
        var what = S[PURPOSE[r.purpose] || "entry"];
        if (r.refund) what = fmt(S.refund, { what: what });
        // The room's time, as on the paper receipt and at the desk (the server's `time`), not
        // the phone's zone: a visitor's phone at home time showed 07:42 for a 14:42 receipt.
        return [r.number + " · " + (r.time || "") + " · " + what, money(r.amount)];
      })
    );
  }

  /* ------------------------------------------------------------ the move notice */

  function beep() {
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      var ctx = api.audio || (api.audio = new Ctx());
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.2;
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.35);
    } catch (e) { /* no sound before the first touch: the notice and vibration remain */ }
  }

  function notify(title, body) {
    if (!("Notification" in window) || window.Notification.permission !== "granted") return;
    var options = { body: body, tag: storeKey, renotify: true };
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.ready.then(function (reg) { reg.showNotification(title, options); });
      return;
    }
    try {
      new window.Notification(title, options);
    } catch (e) { /* phones want the service worker's notification */ }
  }

  function showMoved(player) {
    var values = { t: player.table, s: player.seat };
    // The table and the seat each whole on its line ("1. asztal" / "6. szék"): a 390 px phone
    // broke the big line between "6." and "szék".
    var seatBox = field("notice-seat");
    seatBox.textContent = "";
    fmt(S.table_seat, values).split(" · ").forEach(function (part) {
      var line = document.createElement("span");
      line.className = "move-notice-part";
      line.textContent = part;
      seatBox.appendChild(line);
    });
    setText("notice-body", fmt(S.moved_body, values));
    var notice = document.getElementById("move-notice");
    if (!notice.open) {
      if (notice.showModal) notice.showModal();
      else notice.setAttribute("open", "");
    }
    api.noticeShownAt = Date.now();
    notice.querySelector("button").focus();
    if (navigator.vibrate) {
      try { navigator.vibrate([300, 120, 300]); } catch (e) { /* not allowed yet */ }
    }
    beep();
    notify(fmt(S.notify_title, values), fmt(S.moved_body, values));
  }

  document.addEventListener("click", function (e) {
    var action = e.target.closest("[data-action]");
    if (!action) return;
    if (action.dataset.action === "notice-ok") {
      var notice = document.getElementById("move-notice");
      if (notice.close) notice.close();
      else notice.removeAttribute("open");
    } else if (action.dataset.action === "notify" && "Notification" in window) {
      window.Notification.requestPermission().then(renderNotifyButton);
    }
  });

  function renderNotifyButton() {
    var button = document.querySelector('[data-action="notify"]');
    button.hidden =
      !("Notification" in window) ||
      window.Notification.permission !== "default" ||
      state.player.status !== "active" ||
      tournamentOver();
  }

  /* ------------------------------------------------------------ the whole state */

  function seatKey(player) {
    return player.table !== null && player.seat !== null ? player.table + ":" + player.seat : null;
  }

  /** His last chip count: chips, rank, big blinds; a bag's Day-2 seat (docs/rules.md §15.4). */
  // A bounty tournament (docs/rules.md §16): the bounty on his head and the cash he has won.
  function renderBounty(bounty) {
    document.querySelector('[data-section="bounty"]').hidden = !bounty;
    if (!bounty) return;
    setText("bounty-head", money(bounty.on_head));
    setText("bounty-won", fmt(S.bounty_won, { amount: money(bounty.won) }));
  }

  function renderStack(stack) {
    document.querySelector('[data-section="stack"]').hidden = !stack;
    if (!stack) return;
    setText("stack-chips", num(stack.chips));
    var parts = [];
    if (stack.bagged) parts.push(S.stack_bagged);
    if (stack.rank) parts.push(fmt(S.stack_rank, { rank: num(stack.rank), of: num(stack.of) }));
    if (stack.big_blinds !== null && !stack.bagged) parts.push(fmt(S.stack_bb, { n: num(stack.big_blinds) }));
    if (stack.day2_table) parts.push(fmt(S.stack_day2_seat, { t: stack.day2_table, s: stack.day2_seat }));
    setText("stack-line", parts.join(" · "));
  }

  function renderState(st, fresh) {
    var previous = remembered();
    var before = previous && previous.player ? seatKey(previous.player) : null;
    var now = seatKey(st.player);
    state = st;
    renderSeat(st.player);
    renderResult(st.result);
    renderStack(st.stack || null);
    renderBounty(st.bounty || null);
    renderCancelled(st.cancelled);
    setText("players", num(st.stats.players_remaining));
    setText("average", num(st.stats.average_stack));
    setText("pool", money(st.stats.prize_pool));
    renderPayouts(st.payouts);
    renderNotifyButton();
    renderReceipts(st.receipts);
    if (fresh) {
      remember(st);
      if (before && now && before !== now && st.player.status === "active") showMoved(st.player);
    }
    // A move notice nobody acknowledged says nothing true once the player is out, or has won
    // (the winner never busts): his place and prize show instead (evening runs: "go to table 1,
    // seat 5" over a 13th place, and over the winner's 1st place at the finish).
    var notice = document.getElementById("move-notice");
    if (notice && notice.open && (st.player.status !== "active" || st.result)) {
      if (notice.close) notice.close();
      else notice.removeAttribute("open");
    }
    api.renders += 1;
  }

  function renderClock(view) {
    var p = view.period || {};
    var flight = state && state.tournament && state.tournament.flight;
    var title = view.status === "finished" ? (flight ? S.day_over : S.finished)
      : p.kind === "break" ? S["break"]
      : fmt(S.level, { n: view.level || "" });
    if (view.status === "paused") title += " · " + S.paused;
    if (view.status === "pending") title += " · " + S.pending;
    setText("level", title);
    setText("countdown", view.text);
    setText("blinds", p.kind === "level" ? num(p.small_blind) + " / " + num(p.big_blind) : "–");
    setText("ante", p.kind === "level" && p.ante ? num(p.ante) : "–");
    var next = view.next_period;
    setText(
      "next",
      next
        ? fmt(S.next, {
            what: next.kind === "break" ? S["break"] : num(next.small_blind) + " / " + num(next.big_blind) + (next.ante ? " (" + num(next.ante) + ")" : ""),
          })
        : ""
    );
    var toBreak = view.to_break_ms;
    setText(
      "next-break",
      toBreak === null || toBreak === undefined
        ? (p.kind === "break" ? "" : S.no_break)
        : fmt(S.next_break, { time: formatMs(toBreak) })
    );
    document.body.classList.toggle("is-paused", view.status === "paused");
    document.body.classList.toggle("is-last-minute", !!view.last_minute);
  }

  function formatMs(ms) {
    var total = Math.ceil(ms / 1000);
    var h = Math.floor(total / 3600);
    var m = Math.floor((total % 3600) / 60);
    var s = total % 60;
    return (h ? h + ":" + ("0" + m).slice(-2) : m) + ":" + ("0" + s).slice(-2);
  }

  /* ------------------------------------------------------------ start */

  var last = remembered();
  if (last && last.server_time_ms > state.server_time_ms) state = last; // a cached page, newer data
  renderState(state, !last);
  if (!last) remember(state);
  renderNotifyButton();

  var pending = null;
  var again = false;
  var later = null;
  // An event about this player (his move, his bust-out) is fetched at once. Any other change
  // (players left, the pool) is fetched at most once every OTHERS_EVERY_MS, a few seconds late
  // at random: every phone of the room gets every event (a hand reported at any table, every
  // bust-out, every late entry: about one a second in a big room), and a refetch for each from
  // a thousand phones would be a thousand snapshots a second for the server.
  var SPREAD_MS = 3000;
  var OTHERS_EVERY_MS = 30000;
  var fetchedAt = Date.now(); // the state the page was rendered with
  function refetchSoon(mine) {
    if (mine) {
      if (later) window.clearTimeout(later);
      later = null;
      refetch();
    } else if (!later) {
      var due = Math.max(0, fetchedAt + OTHERS_EVERY_MS - Date.now());
      later = window.setTimeout(function () {
        later = null;
        refetch();
      }, due + Math.random() * SPREAD_MS);
    }
  }
  function refetch() {
    if (pending) {
      again = true;
      return;
    }
    fetchedAt = Date.now();
    pending = live.refresh().then(function () {
      pending = null;
      if (again) {
        again = false;
        refetch();
      }
    });
  }

  /* ------------------------------------------------------------ a revoked or expired link */

  // The state answers 403 {code: "player_link_revoked" | "player_link_expired", detail}: the
  // page says so in place, forgets the kept state and stops listening.
  var ended = false;
  function showEnded(detail, code) {
    if (ended) return;
    ended = true;
    var box = document.getElementById("link-ended");
    box.dataset.code = code;
    setText("ended-detail", detail);
    box.hidden = false;
    document.body.classList.add("is-link-ended");
    // Nothing of the player stays on a link that no longer works (it may be a leaked one), and
    // "offline" would send him looking for the network instead of the desk.
    document.querySelectorAll("#offline-banner, .pp-sub").forEach(function (el) { el.remove(); });
    try { window.localStorage.removeItem(storeKey); } catch (e) { /* private mode */ }
    if (api.live) api.live.stop();
  }
  function checkEnded() {
    if (ended) return Promise.resolve(true);
    return window.fetch(config.state_url, { headers: { Accept: "application/json" } }).then(
      function (response) {
        if (response.status !== 403) return false;
        return response.json().then(function (data) {
          if (!data || String(data.code).indexOf("player_link_") !== 0) return false;
          showEnded(data.detail, data.code);
          return true;
        });
      },
      function () { return false; }
    );
  }
  api.checkEnded = checkEnded;

  var live = Tourney.liveClock({
    clock: state.clock,
    periods: state.periods,
    eventsUrl: config.events_url,
    snapshotUrl: config.state_url,
    readSnapshot: function (json) { return { clock: json.clock, periods: json.periods }; },
    onSnapshot: function (json) {
      fetchedAt = Date.now(); // a reconnect's refetch too
      if (json) renderState(json, true);
      else checkEnded(); // refused: a revoked or expired link says so
    },
    onEvent: function (kind, data) {
      if (kind !== "changed") return;
      if (data && data.kind === "player_link_revoked") checkEnded();
      else refetchSoon(data && data.mine);
    },
    onRender: renderClock,
    onStatus: function (online) {
      document.body.dataset.stream = online ? "online" : "offline";
      if (!online) checkEnded(); // a closed stream: the link may have been revoked or expired
    },
    kinds: ["changed"],
  });
  api.live = live;
  Tourney.serverClock.start && Tourney.serverClock.start();

  if ("serviceWorker" in navigator && config.sw_url) {
    navigator.serviceWorker.register(config.sw_url, { scope: "/p/" }).catch(function () {});
  }
})(window, document);
