/*!
 * dealer-link.js: a table's dealer page from its signed link (templates/tables/dealer_links/).
 * Its buttons call the public API with the link's token as the bearer: hand finished, a
 * bust-out of the chosen seat, a move into or out of this table done, the clock called on the
 * chosen seat; during a color-up break a banner leads to this table's color-up (by the link,
 * /dealer/<token>/color-up/). The server lets the token do this table's dealer actions only. The page refetches
 * its state on every event of the stream; a revoked link is told so and stops.
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney;
  var config = JSON.parse(document.getElementById("dealer-config").textContent);
  var S = config.strings;
  var state = JSON.parse(document.getElementById("dealer-state").textContent);
  var chosen = null;
  var stopped = false;
  // A bounty tournament (docs/rules.md §16): after Bust-out the dealer taps the pot's winners
  // (`picking` the busted seat, `winners` the seats tapped), then confirms.
  var picking = null;
  var winners = [];
  // Calling the clock (docs/rules.md §9.1): after Call the clock the dealer taps the seat of
  // the player who asked (`callerFor` is the seat the clock is called on).
  var callerFor = null;
  var hintText = null;

  // The clock called at this table: its end by this phone's clock, and the closing countdown's
  // length (ms); the seconds left shown every quarter second.
  var callDue = null;
  function tickCall() {
    if (!callDue) return;
    var left = Math.max(0, callDue.at - Date.now());
    var box = field("call");
    field("call-time").textContent = String(Math.ceil(left / 1000));
    field("call-phase").textContent = left === 0 ? S.call_up : left <= callDue.last ? S.call_countdown : S.call_act;
    box.classList.toggle("is-countdown", left > 0 && left <= callDue.last);
    box.classList.toggle("is-up", left === 0);
    // as on the floor's page: "Time expired" only at zero, "Acted in time" only before it
    box.querySelectorAll('[data-action="call-end"]').forEach(function (b) {
      b.disabled = b.dataset.outcome === "expired" ? left > 0 : left === 0;
    });
  }
  window.setInterval(tickCall, 250);

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) {
      return values[key] === undefined || values[key] === null ? "" : values[key];
    });
  }

  function field(name) {
    return document.querySelector('[data-field="' + name + '"]');
  }

  // The answer to the last action, in the action bar's reserved line (in the hint's place):
  // an answer clears itself after SAY_MS, an error stays till the next action.
  var SAY_MS = 6000;
  var sayTimer = null;
  function say(text, bad) {
    var box = field("message");
    window.clearTimeout(sayTimer);
    box.textContent = text;
    box.classList.toggle("is-bad", !!bad);
    box.hidden = !text;
    if (text && !bad) sayTimer = window.setTimeout(function () { say(""); }, SAY_MS);
    hint();
  }

  function hint() {  // why Bust-out and Call the clock wait, unless the line holds an answer
    var box = field("hint");
    if (hintText === null) hintText = box.textContent;
    box.textContent = picking !== null ? S.pick_winner : callerFor !== null ? S.pick_caller : hintText;
    box.hidden = (chosen !== null && picking === null && callerFor === null) || !!state.over ||
      !field("message").hidden;
  }

  // The winners in the odd chip's order: the first seat left of the button first.
  function fromButton(seats) {
    var n = state.table.seats.length;
    var button = state.table.button_seat || 0;
    return seats.slice().sort(function (a, b) {
      return (((a - button) % n + n) % n || n) - (((b - button) % n + n) % n || n);
    });
  }

  function stopPicking() {
    picking = null;
    winners = [];
  }

  function call(path, body) {
    return window.fetch(config.api + path, {
      method: "POST",
      headers: {
        Accept: "application/json",
        "Content-Type": "application/json",
        Authorization: "Bearer " + config.token,
      },
      body: JSON.stringify(body || {}),
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok) {
          var error = new Error(data.detail || response.statusText);
          error.code = data.code;
          throw error;
        }
        return data;
      });
    });
  }

  function seatOf(number) {
    return state.table.seats.filter(function (s) { return s.seat === number; })[0] || null;
  }

  /*
   * Seats next to each other up a side may not be taller than the gap between their centres,
   * or they overlap: a long name wraps to three or four lines ("Gyöngyösi-Szentmiklóssy
   * Bernadett" beside a mover's "8 ← T5 S6 Horváth Júlia Boglárka" on a 1280x720 screen).
   * Nor may a seat reach the felt: a seat sitting out a penalty has a line more ("penalizace ·
   * zbývá 9"), and the far end's seat crossed the felt's top edge by 2 to 8 px (evening run).
   * Such a seat's text steps down in size till it fits, to no less than 0.65rem (the felt
   * starts low enough, dealer-link.css, that a far-end seat with a penalty fits at 0.8rem).
   * A name breaks only between words or after a hyphen (dealer-link.css): a word wider than
   * its seat steps the text down further, till the longest word fits ("Gyöngyösi-Szentmi /
   * klóssy" in an evening run). Only below WORD_MIN_REM may a word break (never seen: the
   * longest Hungarian place-names fit at 0.55rem in the narrowest seat, 1280x720).
   */
  var WORD_MIN_REM = 0.5;
  var FELT_GAP = 3;  // px between a seat and the felt

  function onFelt(seat, felt) {
    var r = seat.getBoundingClientRect();
    return !(r.right <= felt.left - FELT_GAP || r.left >= felt.right + FELT_GAP ||
      r.bottom <= felt.top - FELT_GAP || r.top >= felt.bottom + FELT_GAP);
  }

  function fitSeats(box) {
    var seats = Array.prototype.slice.call(box.querySelectorAll(".dl-seat"));
    var feltBox = box.querySelector(".pp-felt");
    if (!feltBox || !seats.length) return;
    var gap = Infinity;
    seats.forEach(function (a, i) {
      seats.slice(i + 1).forEach(function (b) {
        if (a.style.left !== b.style.left) return;
        var apart = Math.abs(parseFloat(a.style.top) - parseFloat(b.style.top));
        gap = Math.min(gap, (apart * box.clientHeight) / 100);
      });
    });
    var felt = feltBox.getBoundingClientRect();
    seats.forEach(function (seat) {
      seat.style.fontSize = "";
      seat.classList.remove("is-squeezed");
      var crowded = function () { return seat.offsetHeight > gap - 4 || onFelt(seat, felt); };
      var size = 0.8;
      for (; crowded() && size > 0.65 + 0.001; size -= 0.05) {
        seat.style.fontSize = (size - 0.05).toFixed(2) + "rem";
      }
      var name = seat.querySelector(".dl-seat-name");
      for (; name && !wordsFit(name) && size > WORD_MIN_REM + 0.001; size -= 0.025) {
        seat.style.fontSize = (size - 0.025).toFixed(3) + "rem";
      }
      if (name && !wordsFit(name)) seat.classList.add("is-squeezed");
    });
  }

  // Every word of the name inside the name's box (a word wider than it runs past its edge).
  function wordsFit(name) {
    return name.scrollWidth <= name.clientWidth + 0.5;
  }

  function render() {
    Tourney.tableMap(field("seats"), state.table.number, state.table.seats, function (s) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "dl-seat";
      b.setAttribute("role", "radio");
      b.setAttribute("aria-checked", String(chosen === s.seat));
      b.dataset.seat = s.seat;
      b.disabled = !s.entry_id;
      if (state.table.button_seat === s.seat) b.dataset.button = "1";
      var n = document.createElement("span");
      n.className = "dl-seat-number num";
      n.textContent = s.seat;
      var name = document.createElement("span");
      name.className = "dl-seat-name";
      name.textContent = s.player_name || S.empty;
      b.appendChild(n);
      b.appendChild(name);
      // A pending mover (docs/rules.md §3.4), as the console shows him: still in this seat
      // till he has left, "leaving → T2 S5" (the dealer busts him here); or the seat held
      // for him, "arriving ← T1 S3", his name but not yet his to bust.
      var move = s.leaving || s.arriving;
      if (move) {
        b.classList.add(s.leaving ? "is-leaving" : "is-arriving");
        var arrow = document.createElement("span");
        arrow.className = "dl-seat-move";
        arrow.textContent = s.move_short || move;
        arrow.title = move;
        // Beside the seat's number, not under the name: a line more made the seat taller
        // than the gap to its neighbour on a small table (geometry check, 1280x720, phones).
        n.appendChild(document.createTextNode(" "));
        n.appendChild(arrow);
        b.setAttribute("aria-label", s.seat + " " + (s.player_name || "") + " " + move);
      }
      if (s.bounty_text) {  // the bounty on his head
        var bounty = document.createElement("span");
        bounty.className = "dl-seat-bounty num";
        bounty.textContent = s.bounty_text;
        name.appendChild(bounty);
      }
      if (picking !== null) {
        if (s.seat === picking) b.classList.add("is-busting");
        if (winners.indexOf(s.seat) >= 0) {
          b.classList.add("is-winner");
          b.setAttribute("aria-checked", "true");
        }
      }
      if (s.away) b.classList.add("is-away");
      if (s.penalty) {  // sitting out a penalty: the dealer kills the seat's hand
        b.classList.add("is-penalty");
        var meta = document.createElement("span");
        meta.className = "dl-seat-penalty";
        meta.textContent = s.penalty;
        name.appendChild(meta);
      }
      return b;
    }, "stadium");
    fitSeats(field("seats"));
    if (chosen !== null && !(seatOf(chosen) || {}).entry_id) chosen = null;
    if (picking !== null && !(seatOf(picking) || {}).entry_id) stopPicking();
    winners = winners.filter(function (w) { return (seatOf(w) || {}).entry_id; });
    var bust = document.querySelector('[data-action="bust"]');
    bust.textContent = picking !== null ? S.bust_confirm : S.bust;
    bust.disabled = picking !== null ? !winners.length : chosen === null;
    field("penalties").hidden = !state.dealer_penalties || !!state.over;
    // Seats away (docs/rules.md §2.3): which, and when their hand is live by the house rule.
    var away = state.table.seats.filter(function (s) { return s.away; });
    field("away").hidden = !away.length || !!state.over;
    field("away-seats").textContent = away.length ? fmt(S.away, {
      seats: away.map(function (s) { return fmt(S.away_seat, { s: s.seat, name: s.player_name }); }).join(", "),
    }) : "";
    field("away-rule").textContent = state.away_text || "";
    Array.prototype.forEach.call(document.querySelectorAll('[data-action="penalty"]'), function (b) {
      b.disabled = chosen === null || picking !== null || callerFor !== null;
    });
    // The clock is called on the seat the chart shows: not on a mover's old seat.
    document.querySelector('[data-action="clock"]').disabled =
      chosen === null || !!(seatOf(chosen) || {}).leaving;
    hint();
    field("h4h").hidden = !state.hand_for_hand;
    // A color-up break: the way to this table's color-up till it is done.
    field("colorup").hidden = state.color_up !== "open" && state.color_up !== "dealt";
    field("colorup-line").textContent = state.color_up === "dealt" ? S.colorup_dealt : S.colorup_open;

    var running = state.clock_calls[0] || null;
    field("call").hidden = !running;
    if (running) {
      field("call-line").textContent = fmt(S.call_line, { s: running.seat, name: running.player_name || "" });
      field("call-rule").textContent = running.at_expiry_text || "";
      // counted from this phone's clock: what was left when the state was served
      callDue = { id: running.id, at: Date.now() + (running.remaining_ms || 0), last: running.countdown_seconds * 1000 };
    } else {
      callDue = null;
    }
    tickCall();

    var moves = field("moves");
    moves.textContent = "";
    var rows = state.incoming.map(function (m) {
      return [m, fmt(S.move_in, { name: m.player_name || "?", t: m.from_table, s: m.from_seat, to: m.to_seat })];
    }).concat(state.outgoing.map(function (m) {
      return [m, fmt(S.move_out, { name: m.player_name || "?", s: m.from_seat, t: m.to_table, to: m.to_seat })];
    }));
    if (!rows.length) {
      var li = document.createElement("li");
      li.className = "pp-list-label";
      li.textContent = S.no_moves;
      moves.appendChild(li);
    }
    rows.forEach(function (row) {
      var li = document.createElement("li");
      var text = document.createElement("span");
      text.className = "pp-list-label";
      text.textContent = row[1];
      var done = document.createElement("button");
      done.type = "button";
      done.className = "btn dl-btn";
      done.dataset.action = "move-done";
      done.dataset.move = row[0].id;
      done.textContent = S.done;
      li.appendChild(text);
      li.appendChild(done);
      moves.appendChild(li);
    });
    // A finished or cancelled tournament (its finish event refetches the state): the page says
    // it is over and no action is offered; the API would answer 409 (shown if anyone tries).
    field("over").hidden = !state.over;
    field("over").textContent = state.over || "";
    if (state.over) {
      chosen = null;
      document.querySelectorAll("[data-action], .dl-seat").forEach(function (b) { b.disabled = true; });
    }
  }

  function refresh() {
    if (stopped) return Promise.resolve();
    return window.fetch(config.state_url, { headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.json().then(function (data) {
          if (response.status === 403) return revoked(data.detail);
          if (response.ok) {
            state = data;
            render();
          }
        });
      })
      .catch(function () {});
  }

  function revoked(detail) {
    stopped = true;
    if (source) source.close();
    say(detail || S.revoked, true);
    document.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    field("colorup").hidden = true;
  }

  // `text`: the answer to say, or a function of the server's answer that makes it
  function act(promise, text) {
    return promise.then(
      function (data) {
        say(typeof text === "function" ? text(data || {}) : text);
        chosen = null;
        return refresh();
      },
      function (error) {
        if (error.code === "dealer_link_revoked") return revoked(error.message);
        say(error.message, true);
      }
    );
  }

  // The bust-out's answer names the place (issue 32: "recorded" and nothing more); the floor
  // undoes a wrong one from the console.
  function bustedText(data) {
    var row = (data.results || [])[0];
    if (!row) return S.busted;
    var place = row.place_to !== row.place ? row.place + "–" + row.place_to : row.place;
    return fmt(S.busted_place, { name: row.player_name || "", place: place });
  }

  function callClock(seat, caller) {
    var body = { seat: seat };
    if (caller !== null) body.caller_seat = caller;
    if (state.clock_minimum) body.elapsed_seconds = state.clock_minimum;
    callerFor = null;
    chosen = null;
    render();
    act(call("/tables/" + state.table.number + "/clock-calls", body), S.clock_called);
  }

  document.addEventListener("click", function (e) {
    var seat = e.target.closest(".dl-seat");
    if (seat && !seat.disabled) {
      var tapped = Number(seat.dataset.seat);
      if (callerFor !== null) {  // the player who called it; the called player again: not now
        if (tapped !== callerFor) callClock(callerFor, tapped);
        else { callerFor = null; render(); }
        return;
      }
      if (picking !== null) {  // a winner more or less; the busted seat again: not now
        if (tapped === picking) stopPicking();
        else if (winners.indexOf(tapped) >= 0) winners.splice(winners.indexOf(tapped), 1);
        else winners.push(tapped);
      } else {
        chosen = tapped;
      }
      render();
      return;
    }
    var button = e.target.closest("[data-action]");
    if (!button || button.disabled) return;
    var number = state.table.number;
    var action = button.dataset.action;
    if (action === "hand") {
      act(call("/tables/" + number + "/hands", {}), S.hand_recorded);
    } else if (action === "bust" && picking !== null && winners.length) {
      var busted = seatOf(picking);
      var won = fromButton(winners);
      var question = fmt(S.confirm_bounty, { s: busted.seat, name: busted.player_name, w: won.join(", ") });
      if (!window.confirm(question)) return;
      stopPicking();
      chosen = null;
      render();
      act(call("/eliminations", { eliminations: [{
        entry_id: busted.entry_id,
        busted_by: won.map(function (w) { return seatOf(w).entry_id; }),
      }] }), bustedText);
    } else if (action === "bust" && chosen !== null && state.bounty) {
      picking = chosen;  // now the winners' seats
      winners = [];
      render();
    } else if (action === "bust" && chosen !== null) {
      var s = seatOf(chosen);
      if (!window.confirm(fmt(S.confirm_bust, { s: s.seat, name: s.player_name }))) return;
      // The seat is let go at once: a double tap must not bust (or ask about) it again.
      chosen = null;
      render();
      act(call("/eliminations", { eliminations: [{ entry_id: s.entry_id }] }), bustedText);
    } else if (action === "clock" && callerFor !== null) {
      callClock(callerFor, null);  // nobody says who asked
    } else if (action === "clock" && chosen !== null) {
      // The house's minimum thinking time, asked as the API checks it (Mirage: 90 s).
      if (state.clock_minimum && !window.confirm(fmt(S.clock_minimum, { s: state.clock_minimum }))) return;
      callerFor = chosen;
      render();
    } else if (action === "call-end" && state.clock_calls[0]) {
      act(
        call("/clock-calls/" + state.clock_calls[0].id + "/end", { outcome: button.dataset.outcome }),
        S.call_ended
      );
    } else if (action === "penalty" && chosen !== null) {
      var p = seatOf(chosen);
      var reason = window.prompt(fmt(S.penalty_reason, { s: p.seat, name: p.player_name }));
      if (!reason || !reason.trim()) return;
      var body = { entry_id: p.entry_id, kind: button.dataset.kind, reason: reason.trim() };
      if (body.kind === "missed_rounds") body.rounds = 3;  // "tři kola stop": three orbits
      act(call("/penalties", body), S.penalty_given);
    } else if (action === "move-done") {
      act(call("/actions/" + button.dataset.move + "/done", {}), S.moved);
    }
  });

  var source = null;
  function connect() {
    if (stopped || !window.EventSource) return;
    source = new window.EventSource(config.events_url);
    source.onopen = function () {
      if (window.Tourney) window.Tourney.setOnline(true);
      document.body.dataset.stream = "online";
      refresh();
    };
    source.onmessage = refresh;
    ["ready", "eliminations", "actions", "seating", "entry", "clock_call", "hand",
      "dealer_link_revoked", "tournament", "color_up", "clock"].forEach(function (kind) {
      source.addEventListener(kind, function () { if (kind !== "ready") refresh(); });
    });
    source.onerror = function () {
      if (window.Tourney) window.Tourney.setOnline(false);
      document.body.dataset.stream = "offline";
      if (source.readyState === 2) {
        // closed for good (a revoked link's stream is refused): ask the page's state why
        refresh().then(function () { if (!stopped) window.setTimeout(connect, 2000); });
      }
    };
  }

  render();
  connect();
  // A phone turned round gives the table another height: the seats are fitted again.
  window.addEventListener("resize", function () { fitSeats(field("seats")); });
})(window, document);
