/*!
 * display.js: the lobby display (templates/clocks/display.html). Each [data-display-screen]
 * section is one tournament with its own Tourney.liveClock (clock.js); this file only draws.
 * The page is rendered by the server first, so it reads well before this runs.
 *
 * #display-config (json_script): {rotate_seconds, time_zone, lang, strings}
 *   rotate_seconds > 0 with several screens: show each in turn for that long.
 *   strings: translated texts with %(name)s placeholders (clocks/display/views.py display_strings).
 * Sound (Web Audio beep + speechSynthesis, in the page's language) for one minute left, level
 * up, break and the end; off until someone presses "Sound on" (browsers block autoplay); the
 * choice is remembered in localStorage ("tourney.display.sound").
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney;
  var configEl = document.getElementById("display-config");
  var config = configEl ? JSON.parse(configEl.textContent) : {};
  var S = config.strings || {};
  var SOUND_KEY = "tourney.display.sound";
  var MOVES_ALWAYS = 4; // the latest moves always show; more only while recent
  var MOVES_RECENT_MS = 15 * 60 * 1000;
  var fmt = function (n) { return Tourney.formatNumber(n); };

  function t(key, params) {
    var text = S[key] || key;
    return text.replace(/%\((\w+)\)s/g, function (m, k) {
      return params && params[k] !== undefined ? params[k] : m;
    });
  }

  function esc(text) {
    var div = document.createElement("div");
    div.textContent = text == null ? "" : String(text);
    return div.innerHTML;
  }

  function setText(el, text) {
    if (el && el.textContent !== text) el.textContent = text;
  }

  function setHTML(el, html) {
    if (el && el._html !== html) {
      el._html = html;
      el.innerHTML = html;
    }
  }

  /* ------------------------------------------------------------ sound */

  var sound = {
    on: false,
    ctx: null,
    init: function () {
      try {
        this.on = window.localStorage.getItem(SOUND_KEY) === "on";
      } catch (e) {
        this.on = false;
      }
      var button = document.getElementById("display-sound");
      if (!button) return;
      var self = this;
      button.hidden = false;
      button.addEventListener("click", function () {
        self.set(!self.on);
        if (self.on) self.beep(1);
      });
      if (self.on) {
        // Remembered "on": the browser may still want a gesture before it plays anything.
        var unlock = function () {
          self.audio();
          document.removeEventListener("pointerdown", unlock);
          document.removeEventListener("keydown", unlock);
        };
        document.addEventListener("pointerdown", unlock);
        document.addEventListener("keydown", unlock);
      }
      self.paint();
    },
    set: function (value) {
      this.on = !!value;
      try {
        window.localStorage.setItem(SOUND_KEY, this.on ? "on" : "off");
      } catch (e) { /* private mode: not remembered */ }
      if (this.on) this.audio();
      else if (window.speechSynthesis) window.speechSynthesis.cancel();
      this.paint();
    },
    paint: function () {
      var button = document.getElementById("display-sound");
      if (!button) return;
      button.setAttribute("aria-pressed", this.on ? "true" : "false");
      button.classList.toggle("is-on", this.on);
      setText(button.querySelector("[data-sound-label]"), this.on ? S.sound_off : S.sound_on);
    },
    audio: function () {
      var AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return null;
      if (!this.ctx) this.ctx = new AC();
      if (this.ctx.state === "suspended") this.ctx.resume();
      return this.ctx;
    },
    /** `count` short beeps, 0.25 s apart. */
    beep: function (count) {
      var ctx = this.on && this.audio();
      if (!ctx) return;
      for (var i = 0; i < count; i++) {
        var start = ctx.currentTime + i * 0.25;
        var osc = ctx.createOscillator();
        var gain = ctx.createGain();
        osc.type = "sine";
        osc.frequency.value = 880;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.4, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.18);
        osc.connect(gain).connect(ctx.destination);
        osc.start(start);
        osc.stop(start + 0.2);
      }
    },
    say: function (text) {
      if (!this.on || !window.speechSynthesis || !window.SpeechSynthesisUtterance) return;
      var utterance = new window.SpeechSynthesisUtterance(text);
      var lang = config.lang || document.documentElement.lang || "en";
      utterance.lang = lang;
      var voices = window.speechSynthesis.getVoices() || [];
      for (var i = 0; i < voices.length; i++) {
        if (voices[i].lang && voices[i].lang.toLowerCase().indexOf(lang.toLowerCase()) === 0) {
          utterance.voice = voices[i];
          break;
        }
      }
      // Let the beep finish first.
      window.setTimeout(function () { window.speechSynthesis.speak(utterance); }, 700);
    },
  };

  /* ------------------------------------------------------------ one screen */

  function Screen(root, index, many) {
    var self = this;
    self.root = root;
    self.many = many;
    self.state = JSON.parse(document.getElementById(root.getAttribute("data-state-id")).textContent);
    self.fields = {};
    Array.prototype.forEach.call(root.querySelectorAll("[data-field]"), function (el) {
      self.fields[el.getAttribute("data-field")] = el;
    });
    self.last = null; // the previous view, for announcements
    self.chipsIndex = null;
    self.refreshTimer = null;
    self.renderStats();
    self.live = Tourney.liveClock({
      clock: self.state.clock,
      periods: self.state.periods,
      eventsUrl: root.getAttribute("data-events-url") || null,
      snapshotUrl: root.getAttribute("data-state-url"),
      readSnapshot: function (json) { return { clock: json.clock, periods: json.periods }; },
      onSnapshot: function (json) {
        self.state = json;
        self.chipsIndex = null;
        self.renderStats();
        self.live.render();
      },
      onRender: function (view) { self.renderClock(view); },
      onEvent: function (kind, data) { self.onEvent(kind, data); },
      onStatus: function (online) { root.classList.toggle("is-offline", !online); },
      kinds: ["hand_for_hand"],
      reportOnline: false,
    });
  }

  Screen.prototype.onEvent = function (kind, data) {
    if (kind === "ready") return; // the stream's own (re)connect already refetches
    // A hand reported at a table (about one a second in a big room) changes nothing a TV shows:
    // no refetch for it (the hand-for-hand flag comes as its own event).
    if (kind === "hand") return;
    if (kind === "message" && data && typeof data.message === "string") {
      this.state.message = data.message;
      this.renderMessage();
      return;
    }
    // Entries, seats, money, structure: numbers changed somewhere; one refetch for a burst.
    var self = this;
    if (self.refreshTimer) return;
    self.refreshTimer = window.setTimeout(function () {
      self.refreshTimer = null;
      self.live.refresh();
    }, 400);
  };

  Screen.prototype.renderClock = function (view) {
    var f = this.fields;
    var root = this.root;
    var period = view.period || {};
    var isBreak = period.kind === "break";
    var cls = root.classList;
    // The tournament has its winner (or was cancelled): finished, whatever the clock says.
    var over = (this.state.tournament || {}).status;
    var status = over === "finished" || over === "cancelled" ? "finished" : view.status;
    cls.toggle("is-cancelled", over === "cancelled");
    ["pending", "running", "paused", "overtime", "finished"].forEach(function (s) {
      cls.toggle("is-" + s, status === s);
    });
    cls.toggle("is-break", isBreak && status !== "finished" && status !== "pending");
    cls.toggle("is-hand-for-hand", !!(this.state.tournament || {}).hand_for_hand && status !== "finished");
    // down to one table: the header says "Final table" (issue 32: nothing said so at the redraw)
    cls.toggle("is-final-table", !!(this.state.tournament || {}).final_table && status !== "finished");
    cls.toggle("is-last-minute", view.last_minute && !isBreak && status !== "finished");
    cls.toggle("is-predicted", view.predicted);
    root.setAttribute("data-period-index", view.period_index);

    setText(f.countdown, status === "finished" ? "" : view.text);
    if (f.countdown) f.countdown.classList.toggle("is-long", view.text.length > 5);
    if (f.progress) f.progress.style.width = (view.fraction * 100).toFixed(2) + "%";
    setText(
      f.level,
      over === "cancelled" ? S.cancelled
        : status === "finished" ? ((this.state.tournament || {}).flight ? S.day_over : S.finished) : isBreak ? S.break : t("level", { n: view.level })
    );
    if (!isBreak) {
      setText(f.blinds, fmt(period.small_blind) + " / " + fmt(period.big_blind));
      if (f["ante-box"]) f["ante-box"].hidden = !period.ante;
      setText(f["ante-label"], period.big_blind_ante ? S.bb_ante : S.ante);
      setText(f.ante, fmt(period.ante));
    }
    var next = view.next_period;
    // Past the structure's end (docs/rules.md §1.4): no next level, play goes on at this one.
    var nextHTML = status === "overtime" ? esc(S.last_level) : "—";
    if (next && next.kind === "break") nextHTML = esc(S.break);
    else if (next) {
      nextHTML = esc(fmt(next.small_blind) + " / " + fmt(next.big_blind)) +
        (next.ante ? " <small>(" + esc(fmt(next.ante)) + ")</small>" : "");
    }
    setHTML(f.next, nextHTML);
    setText(
      f["to-break"],
      view.to_break_ms == null ? "—" : Tourney.liveClock.formatSeconds(Math.ceil(view.to_break_ms / 1000))
    );
    // the blinds kept together: a narrow box wraps after "Level 5 ·", never at the slash
    setHTML(
      f["break-next"],
      next && next.kind === "level"
        ? esc(t("level", { n: next.level }) + " · ") + '<span class="nowrap">' +
          esc(fmt(next.small_blind) + " / " + fmt(next.big_blind)) + "</span>"
        : ""
    );
    // Past the structure's end every color-up it lists has been made (its last break's too).
    var chipsIndex = status === "overtime" ? view.period_index + 1 : view.period_index;
    if (this.chipsIndex !== chipsIndex) {
      this.chipsIndex = chipsIndex;
      this.renderChips(chipsIndex, period);
    }
    this.renderAddon(status, view.period_index, period);
    this.renderAverage(view);
    // A new part of the screen shows (a break, the end, another level's blinds, the
    // hand-for-hand flag in the header): fit it again.
    var shape = [
      status, isBreak, view.period_index, f.countdown && f.countdown.className,
      cls.contains("is-hand-for-hand"),
    ].join("|");
    if (shape !== this.shape) {
      this.shape = shape;
      this.layout();
    }
    this.announce(view);
  };

  Screen.prototype.layout = function () {
    if (Tourney.layout && !this.root.hidden) Tourney.layout(this.root);
  };

  Screen.prototype.chipHTML = function (chip, tag) {
    return "<" + tag + ' class="dchip"><i style="--chip: ' + esc(chip.css_color) + '"></i>' +
      esc(fmt(chip.value)) + "</" + tag + ">";
  };

  /** Chips in play at `index` (the set less those colored up at earlier breaks) and, on a
   * break, its color-up notice. */
  Screen.prototype.renderChips = function (index, period) {
    var self = this;
    var periods = self.state.periods || [];
    var gone = {};
    for (var i = 0; i < index && i < periods.length; i++) {
      if (periods[i].kind === "break") (periods[i].color_up || []).forEach(function (v) { gone[v] = true; });
    }
    var chips = self.state.chips || [];
    var leaving = {};
    (period.kind === "break" ? period.color_up || [] : []).forEach(function (v) { leaving[v] = true; });
    setHTML(self.fields.chips, chips.filter(function (c) { return !gone[c.value]; }).map(function (c) {
      return self.chipHTML(c, "li").replace('class="dchip"', 'class="dchip' + (leaving[c.value] ? " is-leaving" : "") + '"');
    }).join(""));
    var up = chips.filter(function (c) { return leaving[c.value]; });
    // The break of a color-up began here (perhaps by the local flip at zero): fetch how the
    // tables are doing once the server has moved on as well.
    var known = self.state.color_up && self.state.color_up.period_index === index;
    if (up.length && !known && !self.refreshTimer) {
      self.refreshTimer = window.setTimeout(function () {
        self.refreshTimer = null;
        self.live.refresh();
      }, 1500);
    }
    setHTML(
      self.fields.colorup,
      up.length
        ? up.map(function (c) { return self.chipHTML(c, "span"); }).join("") +
            '<span class="dclock-colorup-note">' + esc(S.color_up_note) + "</span>"
        : '<span class="dclock-colorup-note">' + esc(S.no_color_up) + "</span>"
    );
  };

  /** The add-on's break (the break after its level, the clock on it): what is on sale, beside
   * "Break"; a color-up box that would only say "no color-up" gives way to it. */
  Screen.prototype.renderAddon = function (status, index, period) {
    var f = this.fields;
    var addon = (this.state.tournament || {}).addon;
    var before = (this.state.periods || [])[index - 1];
    var selling = !!(addon && period && period.kind === "break" && before &&
      before.level === addon.after_level && (status === "running" || status === "paused"));
    if (!f["addon-box"]) return;
    f["addon-box"].hidden = !selling;
    if (selling) {
      var money = Tourney.formatMoney(addon.price, this.root.getAttribute("data-money"));
      setText(f.addon, t("addon_now", { chips: fmt(addon.chips), price: money }));
    }
    if (f["colorup-box"]) f["colorup-box"].hidden = selling && !(period.color_up || []).length;
  };

  Screen.prototype.renderAverage = function (view) {
    var period = view.period || {};
    var bb = period.kind === "level" ? period.big_blind : view.next_period && view.next_period.big_blind;
    var avg = this.state.stats.average_stack;
    setText(this.fields["average-bb"], bb && avg ? t("bb", { n: fmt(Math.round((avg / bb) * 10) / 10) }) : "");
  };

  Screen.prototype.renderStats = function () {
    var f = this.fields;
    var st = this.state.stats;
    setText(f.players, fmt(st.players_remaining));
    setText(f.entries, fmt(st.entries));
    setText(f.average, fmt(st.average_stack));
    setText(f["prize-pool"], fmt(st.prize_pool));
    setText(f.rebuys, fmt(st.rebuys));
    setText(f.addons, fmt(st.addons));
    // The ladder (tourney/payouts/usecases.py payout_ladder): places with one amount grouped,
    // the next place out marked; of the places decided only the one decided last stays, the
    // first "done" row (the lowest places: those paid most recently; the rest is history); the
    // panel pages through the rest.
    var payouts = (this.state.payouts || []).filter(function (p) { return !p.gap; });
    var latestDone = -1;
    payouts.forEach(function (p, i) { if (p.state === "done" && latestDone < 0) latestDone = i; });
    payouts = payouts.filter(function (p, i) { return p.state !== "done" || i === latestDone; });
    if (f["payouts-box"]) f["payouts-box"].hidden = !payouts.length;
    setHTML(f.payouts, payouts.map(function (p) {
      var places = p.place_to && p.place_to !== p.place ? fmt(p.place) + "–" + fmt(p.place_to) : fmt(p.place);
      return '<li class="is-' + esc(p.state || "open") + '"><span class="num">' + esc(places) + '.</span><span class="num">' +
        esc(p.label || fmt(p.amount)) + "</span></li>";  // a satellite's seats read as seats
    }).join(""));
    if (this.state.satellite && f["payouts-title"]) {  // "7 seats", the target below it
      setText(f["payouts-title"], this.state.satellite.title);
      setText(f["payouts-target"], this.state.satellite.target_name);
    }
    var ladder = this.state.payout_ladder || {};
    setText(f["payouts-flag"], ladder.bubble ? S.bubble || "Bubble" : ladder.in_money ? S.in_money || "In the money" : "");
    // A color-up break: its method and how many tables are done; then the chips in play.
    var cu = this.state.color_up;
    setText(f["colorup-status"], cu
      ? (cu.method === "race" ? S.color_up_race
        : cu.method === "mixed" ? S.color_up_mixed : S.color_up_round_up) + " · " +
        (cu.all_done ? t("color_up_done", { chips: fmt(st.total_chips) })
          : t("color_up_tables", { done: cu.tables_done, total: cu.tables_total }))
      : "");
    this.renderPending();
    this.renderLeaders();
    this.renderBounties();
    this.renderMoves();
    this.renderResults();
    this.renderMessage();
    this.layout();
  };

  /** The lobby before the start (clocks/_display_pending.html): its figures and heading, as
   * registrations and the seat draw come in; the page was rendered before them. */
  Screen.prototype.renderPending = function () {
    var st = this.state.stats;
    var tournament = this.state.tournament || {};
    var values = {
      "prize-pool": fmt(st.prize_pool),
      players: fmt(st.players_remaining),
      entries: fmt(st.entries),
      average: fmt(st.average_stack),
      "of-entries": t("of_entries", { n: fmt(st.entries) }),
      heading: tournament.seats_drawn ? S.seats_drawn : S.registration_open,
    };
    Array.prototype.forEach.call(this.root.querySelectorAll("[data-stat]"), function (el) {
      var value = values[el.getAttribute("data-stat")];
      if (value != null) setText(el, value);
    });
  };

  /** Every move of the last quarter of an hour (at least the latest four), newest first, paged: all
   * the players of a broken table or a final-table redraw find theirs. */
  Screen.prototype.renderMoves = function () {
    var f = this.fields;
    var now = this.state.server_time_ms || Date.now();
    var moves = (this.state.recent_moves || []).filter(function (m, i) {
      return i < MOVES_ALWAYS || now - m.at_ms <= MOVES_RECENT_MS;
    });
    if (f.moves) {
      var strip = f.moves.closest(".dclock-strip");
      if (strip) {
        strip.classList.toggle("is-moving", moves.length > MOVES_ALWAYS);
        // a break shows the moves beside the color-up while any is recent (a table broken)
        strip.classList.toggle("has-recent-moves", moves.some(function (m) {
          return now - m.at_ms <= MOVES_RECENT_MS;
        }));
      }
    }
    setHTML(f.moves, moves.length
      ? moves.map(function (m) {
          // A floor move says where from as well: "T1 · S6 → T2 · S4".
          var to = t("seat", { t: m.table, s: m.seat });
          var from = m.from_table != null && (m.from_table !== m.table || m.from_seat !== m.seat)
            ? '<span class="dmove-from">' + esc(t("seat", { t: m.from_table, s: m.from_seat }) + " → ") + "</span>"
            : "";
          // A bounty tournament: the bounty on the moved player's head, under his name.
          var head = m.bounty ? ' <small class="dmove-bounty num">' + esc(t("move_bounty", { amount: fmt(m.bounty) })) + "</small>" : "";
          return '<li><span class="dmove-name">' + esc(m.player_name) + head + '</span><span class="num">' +
            from + esc(to) + "</span></li>";
        }).join("")
      : '<li class="dmoves-empty">' + esc(S.no_moves) + "</li>");
  };

  /** The finished screen: the winner, his prize, the places after him. */
  /** The chip leaders' page of this tournament, if the rotation has one (clocks/_display_leaders.html). */
  Screen.prototype.renderLeaders = function () {
    var list = document.querySelector('[data-leaders-for="' + this.root.getAttribute("data-state-id") + '"] [data-leaders-list]');
    if (!list) return;
    setHTML(list, (this.state.leaders || []).map(function (r) {
      return '<li><span class="dleaders-rank num">' + esc(fmt(r.rank)) + '</span><span class="dleaders-name' + (r.player_name.length > 22 ? " is-long" : "") + '">' + esc(r.player_name) +
        (r.flight ? " <small>" + esc(r.flight) + "</small>" : "") + '</span><span class="dleaders-chips num">' + esc(fmt(r.chips)) +
        '</span><span class="dleaders-bb num">' + (r.big_blinds != null ? esc(t("leaders_bb", { n: fmt(r.big_blinds) })) : "") + "</span></li>";
    }).join(""));
  };

  /** The biggest bounties' page of a bounty tournament (clocks/_display_bounties.html). */
  Screen.prototype.renderBounties = function () {
    var page = document.querySelector('[data-bounties-for="' + this.root.getAttribute("data-state-id") + '"]');
    var list = page && page.querySelector("[data-bounties-list]");
    if (!list) return;
    var mystery = this.state.mystery;  // the envelopes left and the latest draws, newest first
    if (mystery) {
      setText(page.querySelector("[data-bounties-kicker]"), t("mystery_left", { left: mystery.left, n: mystery.count }));
      setHTML(list, mystery.draws.map(function (d) {
        return '<li><span class="dleaders-rank num"></span><span class="dleaders-name' + (d.names.length > 22 ? " is-long" : "") + '">' + esc(d.names) +
          '</span><span class="dleaders-chips num">' + esc(fmt(d.value)) + '</span><span class="dleaders-bb num"></span></li>';
      }).join(""));
      return;
    }
    setHTML(list, (this.state.bounties || []).map(function (r) {
      return '<li><span class="dleaders-rank num">' + esc(fmt(r.rank)) + '</span><span class="dleaders-name' + (r.player_name.length > 22 ? " is-long" : "") + '">' + esc(r.player_name) +
        '</span><span class="dleaders-chips num">' + esc(fmt(r.on_head)) + '</span><span class="dleaders-bb num"></span></li>';
    }).join(""));
  };

  Screen.prototype.renderResults = function () {
    var f = this.fields;
    var rows = this.state.final_results || [];
    var pattern = this.root.getAttribute("data-money");
    var money = function (n) { return Tourney.formatMoney(n, pattern); };
    var winner = rows[0];
    var sat = this.state.satellite;  // a satellite: the seats won, every seat winner listed
    var tournament = this.state.tournament || {};
    if (tournament.status === "cancelled") {  // why, in the winner's place; no results
      if (f["winner-box"]) f["winner-box"].classList.remove("is-empty");
      setText(f["winner-title"], S.cancelled);
      setText(f["winner-name"], tournament.cancel_reason || "");
      setText(f["winner-prize"], S.cancelled_note);
      setHTML(f.results, "");
      return;
    }
    if (f["winner-box"]) f["winner-box"].classList.toggle("is-empty", !winner);
    setText(f["winner-title"], sat ? S.seats_won : S.winner);
    setText(f["winner-name"], sat ? sat.target_name : winner ? winner.player_name : "");  // fits
    setText(f["winner-prize"], sat ? sat.title : winner && winner.prize ? money(winner.prize) : "");
    setHTML(f.results, (sat ? rows : rows.slice(1)).map(function (r) {
      var places = r.place_to && r.place_to !== r.place ? fmt(r.place) + "–" + fmt(r.place_to) : fmt(r.place);
      return '<li><span class="num">' + esc(places) + '.</span><span class="dresult-name">' + esc(r.player_name) +
        '</span><span class="num">' + (r.label ? esc(r.label) : r.prize ? esc(fmt(r.prize)) : "") + "</span></li>";
    }).join(""));
  };

  Screen.prototype.renderMessage = function () {
    var f = this.fields;
    var message = (this.state.message || "").trim();
    if (f["message-box"]) f["message-box"].hidden = !message;
    if (f.facts) f.facts.hidden = !!message;
    var track = f.message;
    if (!track || track._message === message) return;
    track._message = message;
    track.classList.remove("is-scrolling");
    track.textContent = message;
    if (!message) return;
    // Scroll only a message longer than the line: two copies, moved by half the width.
    window.requestAnimationFrame(function () {
      var box = f["message-box"];
      if (track.scrollWidth <= box.clientWidth) return;
      track.innerHTML = "<span>" + esc(message) + "</span><span aria-hidden=\"true\">" + esc(message) + "</span>";
      track.style.animationDuration = Math.max(12, message.length * 0.28) + "s";
      track.classList.add("is-scrolling");
    });
  };

  /** Beep and speak on the changes the room must hear; the local flip at zero triggers it, so
   * every screen speaks at the same moment. */
  Screen.prototype.announce = function (view) {
    var last = this.last;
    this.last = { status: view.status, index: view.period_index, minute: view.last_minute };
    if (!last || !sound.on) return;
    var prefix = this.many ? this.state.tournament.name + ". " : "";
    var period = view.period || {};
    if (view.status === "finished" && last.status !== "finished") {
      sound.beep(3);
      sound.say(prefix + ((this.state.tournament || {}).flight ? S.say_day_over : S.say_finished));
    } else if (view.status === "running" && view.period_index !== last.index) {
      if (period.kind === "break") {
        var gone = (this.state.chips || []).filter(function (c) {
          return (period.color_up || []).indexOf(c.value) !== -1;
        }).map(function (c) { return c.color + " " + c.value; });
        sound.beep(2);
        sound.say(prefix + t("say_break", { minutes: Math.round(period.duration_seconds / 60) }) +
          (gone.length ? " " + t("say_color_up", { chips: gone.join(", ") }) : ""));
      } else {
        sound.beep(3);
        sound.say(prefix + t("say_level", { n: period.level, sb: period.small_blind, bb: period.big_blind }) +
          (period.ante ? " " + t(period.big_blind_ante ? "say_bb_ante" : "say_ante", { ante: period.ante }) : ""));
      }
    } else if (view.status === "running" && view.last_minute && !last.minute &&
               view.period_index === last.index && period.kind === "level" && view.remaining_ms > 55000) {
      sound.beep(1);
      sound.say(prefix + t("say_one_minute", { n: period.level }));
    }
  };

  /* ------------------------------------------------------------ the page */

  function wallClocks() {
    var els = document.querySelectorAll("[data-wallclock]");
    var lang = document.documentElement.getAttribute("lang") || undefined;
    var format;
    try {
      format = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: config.time_zone });
    } catch (e) {
      format = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    }
    function tick() {
      var text = format.format(new Date(Tourney.serverClock.now()));
      Array.prototype.forEach.call(els, function (el) { setText(el, text); });
    }
    tick();
    document.addEventListener("tourney:clocksync", tick);
    window.setInterval(tick, 1000); // a wall clock, not the countdown: a late tick is harmless
  }

  function rotate(screens) {
    var every = (config.rotate_seconds || 0) * 1000;
    if (!every || screens.length < 2) return;
    var current = 0;
    window.setInterval(function () {
      screens[current].root.hidden = true;
      current = (current + 1) % screens.length;
      screens[current].root.hidden = false;
      screens[current].layout(); // sized while hidden: fit and page it now it shows
    }, every);
  }

  function start() {
    sound.init();
    var roots = document.querySelectorAll("[data-display-screen]");
    var screens = Array.prototype.map.call(roots, function (root, i) {
      return new Screen(root, i, roots.length > 1);
    });
    Tourney.displayScreens = screens; // for tests and the console's preview
    wallClocks();
    // The rotation: each tournament's screen, then its chip leaders' page when it has one.
    var pages = [];
    screens.forEach(function (screen) {
      pages.push(screen);
      var leaders = document.querySelector('[data-leaders-for="' + screen.root.getAttribute("data-state-id") + '"]');
      if (leaders) pages.push({ root: leaders, layout: function () {} });
      var bounties = document.querySelector('[data-bounties-for="' + screen.root.getAttribute("data-state-id") + '"]');
      if (bounties) pages.push({ root: bounties, layout: function () {} });
    });
    rotate(pages);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(window, document);
