/*!
 * clock.js: Tourney.liveClock, the live blind clock shared by every screen (lobby display,
 * director console clock panel). Plain script, no build step; load it after tourney.js.
 *
 *   var live = Tourney.liveClock({
 *     clock: {...},        // required: the GET /api/v1/tournaments/{id}/clock object
 *     periods: [...],      // the structure's periods, in order:
 *                          //   [{kind, level, small_blind, big_blind, ante, duration_seconds, color_up}]
 *                          // needed to flip at zero; without them the count stops at 0:00 until
 *                          // the server's clock event says what comes next
 *     eventsUrl: "...",    // the SSE stream (GET .../events, with ?display=<token> on a TV);
 *                          // omit for no stream
 *     snapshotUrl: "...",  // refetched on every (re)connect of the stream (default: none)
 *     readSnapshot: function (json) { return {clock: ..., periods: ...}; },
 *                          // default: the snapshot IS the clock object (GET .../clock)
 *     onRender: function (view) {},   // whenever anything shown changes (at most once a frame)
 *     onEvent: function (kind, data, id) {},  // every event that is not `clock` (incl. "ready")
 *     onClock: function (clock, reason) {},   // a clock object arrived (event or snapshot)
 *     onSnapshot: function (json) {},         // a refetched snapshot arrived
 *     onStatus: function (online) {},         // the stream connected (true) or was lost (false)
 *     kinds: ["..."],      // extra event names to listen to (EventSource needs each name)
 *                          // Every event (`clock` too) is also dispatched on `document` as
 *                          // "tourney:event" {kind, data, id}, and each (re)connect or loss
 *                          // as "tourney:stream" {online}, so other scripts on the page
 *                          // (static/js/floor.js) share this one stream.
 *     reportOnline: true,  // drive Tourney.setOnline (body.is-offline, #offline-banner)
 *     resyncMs: 300000,    // re-estimate the server clock offset this often (lowest-RTT sample)
 *   });
 *
 *   live.view()              the current view (below), computed now
 *   live.setClock(clock)     apply a clock object, e.g. the response of POST .../clock/pause
 *                            (ignored when its `version` is older than the one held)
 *   live.setPeriods(periods) replace the structure
 *   live.refresh()           refetch the snapshot now (returns a promise)
 *   live.stop()              close the stream and stop rendering
 *
 * The view (onRender's argument):
 *   status         "pending" | "running" | "paused" | "overtime" | "finished"; overtime: the
 *                  structure has run out and play goes on at its last level
 *   predicted      true from the local flip at zero until the server's clock event confirms it
 *   period_index   index into periods
 *   period         {kind, level, small_blind, big_blind, ante, duration_seconds, color_up?}
 *                  (in overtime the last level, also after a structure that ends with a break)
 *   level          the blind level number, null on a break
 *   next_period    like period, or null after the last one
 *   remaining_ms   time left in the period, >= 0 (frozen while paused or pending)
 *   seconds, text  whole seconds shown (rounded up) and "12:34" / "1:02:03"; in overtime the
 *                  time played since the structure ran out, "+12:34", or "0:00" when the
 *                  house's `after_last_level` is "zero"
 *   overtime_ms    in overtime, the time since the structure ran out (else null)
 *   played_index   the period played: period_index, but in overtime the last level's
 *   ends_at_ms     server instant the period ends (running only, else null)
 *   last_minute    a running or paused period with at most 60 s left
 *   to_break_ms    clock time until the next break starts (null on a break or with none left)
 *   next_break_index
 *   fraction       part of the period played, 0..1
 *   server_now_ms  the estimated server time of this view
 *   online         the stream is connected (navigator.onLine without a stream)
 *   version        the server clock version the view derives from
 *
 * How it keeps every screen on the same second (README, tour step 9 "Display"):
 * remaining = ends_at_ms - Tourney.serverClock.now() on each animation frame, never an
 * accumulating interval; at zero the next period starts from the structure held here, its end
 * at the previous *scheduled* end plus its duration (as clocks/domain/clock.py advance does),
 * so screens flip together before the server announces it. The server's event then replaces
 * the prediction. It keeps counting while offline and refetches the snapshot on reconnect.
 */
(function (window, document) {
  "use strict";

  var Tourney = window.Tourney || (window.Tourney = {});

  var DEFAULT_KINDS = [
    "ready", "entry", "seating", "tournament", "hand", "message", "move", "action",
    "elimination", "eliminations", "payout", "payouts", "structure", "money", "registration",
    "actions", "color_up",
  ];
  var LAST_MINUTE_MS = 60 * 1000;
  var MAX_BACKOFF_MS = 30 * 1000;

  /** "12:34", or "1:02:03" from an hour on. */
  function formatSeconds(total) {
    total = Math.max(0, total | 0);
    var h = Math.floor(total / 3600);
    var m = Math.floor((total % 3600) / 60);
    var s = total % 60;
    var ss = (s < 10 ? "0" : "") + s;
    if (h) return h + ":" + (m < 10 ? "0" : "") + m + ":" + ss;
    return m + ":" + ss;
  }

  function durationMs(period) {
    return (period && period.duration_seconds ? period.duration_seconds : 0) * 1000;
  }

  /**
   * The clock as it really is at server time `now`: a running clock past its end steps through
   * the periods (drift-free), into overtime after the last one (play goes on at the last
   * level). Pure; mirrors the domain's advance.
   */
  function effective(base, periods, now) {
    var played = base.status === "running" || base.status === "overtime";
    var st = {
      status: base.status,
      index: base.period_index || 0,
      endsAt: played ? base.ends_at_ms : null,
      remaining: Math.max(0, base.remaining_ms || 0),
    };
    if (st.status === "running" && st.endsAt != null) {
      if (periods && periods.length > st.index) {
        while (now >= st.endsAt) {
          if (st.index + 1 >= periods.length) {
            return { status: "overtime", index: st.index, endsAt: st.endsAt, remaining: 0 };
          }
          st.index += 1;
          st.endsAt += durationMs(periods[st.index]);
        }
      }
      st.remaining = Math.max(0, st.endsAt - now);
    } else if (st.status === "finished" || st.status === "overtime") {
      st.remaining = 0;
    }
    return st;
  }

  /** The period played at `index`: in overtime the last level at or before it. */
  function playedIndex(periods, index, status) {
    if (status !== "overtime" || !periods) return index;
    for (var i = Math.min(index, periods.length - 1); i >= 0; i--) {
      if (periods[i].kind === "level") return i;
    }
    return index;
  }

  function periodAt(periods, base, index) {
    if (periods && periods[index]) return periods[index];
    if (index === base.period_index) return base.period || null;
    if (index === base.period_index + 1) return base.next_period || null;
    return null;
  }

  Tourney.liveClock = function (opts) {
    opts = opts || {};
    var base = opts.clock || { status: "pending", period_index: 0, remaining_ms: 0, version: 0 };
    var periods = opts.periods || null;
    var online = !opts.eventsUrl ? navigator.onLine !== false : false;
    var source = null;
    var retryTimer = null;
    var backoff = 2000;
    var frame = null;
    var lastKey = null;
    var stopped = false;
    var reportOnline = opts.reportOnline !== false;

    function now() {
      return Tourney.serverClock ? Tourney.serverClock.now() : Date.now();
    }

    function computeView() {
      var t = now();
      var st = effective(base, periods, t);
      var over = st.status === "overtime";
      var period = over && !periods ? base.period : periodAt(periods, base, playedIndex(periods, st.index, st.status));
      var nextIndex = st.status === "finished" ? null : st.index + 1;
      var next = nextIndex == null ? null : periodAt(periods, base, nextIndex);
      var toBreak = null;
      var breakIndex = null;
      if (periods && st.status !== "finished" && !over) {
        var acc = st.remaining;
        for (var i = st.index + 1; i < periods.length; i++) {
          if (periods[i].kind === "break") {
            toBreak = acc;
            breakIndex = i;
            break;
          }
          acc += durationMs(periods[i]);
        }
      }
      var overtime = over ? Math.max(0, t - st.endsAt) : null;
      var countUp = over && base.after_last_level !== "zero";
      var seconds = countUp ? Math.floor(overtime / 1000) : Math.ceil(st.remaining / 1000);
      var duration = durationMs(period);
      var live = st.status === "running" || st.status === "paused";
      return {
        status: st.status,
        overtime_ms: overtime,
        played_index: playedIndex(periods, st.index, st.status),
        predicted: st.index !== (base.period_index || 0) || st.status !== base.status,
        period_index: st.index,
        period: period,
        level: period && period.kind === "level" ? period.level : null,
        next_period: next,
        remaining_ms: st.remaining,
        seconds: seconds,
        text: (countUp ? "+" : "") + formatSeconds(seconds),
        ends_at_ms: st.status === "running" ? st.endsAt : null,
        last_minute: live && st.remaining <= LAST_MINUTE_MS,
        to_break_ms: period && period.kind === "break" ? null : toBreak,
        next_break_index: breakIndex,
        fraction: over ? 1 : duration ? Math.min(1, Math.max(0, 1 - st.remaining / duration)) : 0,
        server_now_ms: t,
        online: online,
        version: base.version,
      };
    }

    function render(force) {
      if (!opts.onRender) return;
      var v = computeView();
      var key = [v.status, v.period_index, v.seconds, v.predicted, v.online, v.version, v.last_minute].join("|");
      if (force || key !== lastKey) {
        lastKey = key;
        opts.onRender(v);
      }
    }

    function loop() {
      if (stopped) return;
      render(false);
      frame = window.requestAnimationFrame(loop);
    }

    function setOnlineState(value) {
      if (online === value) return;
      online = value;
      if (reportOnline && Tourney.setOnline) Tourney.setOnline(value);
      if (opts.onStatus) opts.onStatus(value);
      document.dispatchEvent(new CustomEvent("tourney:stream", { detail: { online: value } }));
      render(true);
    }

    function setClock(clock, reason) {
      if (!clock || typeof clock !== "object" || !clock.status) return false;
      if (base && typeof base.version === "number" && typeof clock.version === "number" && clock.version < base.version) {
        return false; // an older state than the one held (e.g. a snapshot racing an event)
      }
      base = clock;
      if (opts.onClock) opts.onClock(clock, reason || clock.reason || null);
      render(true);
      return true;
    }

    function setPeriods(list) {
      periods = list && list.length ? list : null;
      render(true);
    }

    function refresh() {
      if (!opts.snapshotUrl) return Promise.resolve(null);
      return Tourney.fetchJSON(opts.snapshotUrl).then(function (json) {
        var snap = opts.readSnapshot ? opts.readSnapshot(json) : { clock: json };
        if (snap && snap.periods) setPeriods(snap.periods);
        if (snap && snap.clock) setClock(snap.clock, "snapshot");
        if (opts.onSnapshot) opts.onSnapshot(json);
        return json;
      }, function (err) {
        if (err && err.code === "network") setOnlineState(false);
        return null;
      });
    }

    function parse(e) {
      try {
        return e.data ? JSON.parse(e.data) : null;
      } catch (err) {
        return null;
      }
    }

    function onClockEvent(e) {
      var data = parse(e);
      if (data) setClock(data, data.reason || "event");
      // Parts of a page that depend on the period (a color-up during a break) follow it too.
      document.dispatchEvent(new CustomEvent("tourney:event", {
        detail: { kind: "clock", data: data, id: e.lastEventId || null },
      }));
    }

    function onOtherEvent(e) {
      var data = parse(e);
      if (opts.onEvent) opts.onEvent(e.type, data, e.lastEventId || null);
      document.dispatchEvent(new CustomEvent("tourney:event", {
        detail: { kind: e.type, data: data, id: e.lastEventId || null },
      }));
    }

    function connect() {
      if (stopped || !opts.eventsUrl || !window.EventSource) return;
      window.clearTimeout(retryTimer);
      retryTimer = null;
      if (source) source.close();
      source = new window.EventSource(opts.eventsUrl, { withCredentials: true });
      source.addEventListener("open", function () {
        backoff = 2000;
        setOnlineState(true);
        refresh(); // anything missed while away, and the truth after a prediction
      });
      source.addEventListener("error", function () {
        setOnlineState(false);
        // The browser retries a dropped stream itself (retry: 2000); a refused one (HTTP error,
        // wrong content type) is CLOSED for good, so try again later with a growing pause.
        if (source && source.readyState === 2 && !retryTimer && !stopped) {
          retryTimer = window.setTimeout(connect, backoff);
          backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
        }
      });
      source.addEventListener("clock", onClockEvent);
      source.addEventListener("message", onOtherEvent);
      DEFAULT_KINDS.concat(opts.kinds || []).forEach(function (kind) {
        if (kind !== "clock") source.addEventListener(kind, onOtherEvent);
      });
    }

    function onBrowserOnline() {
      if (source && source.readyState === 2) connect();
      else if (!opts.eventsUrl) setOnlineState(true);
    }
    function onBrowserOffline() {
      setOnlineState(false);
    }
    window.addEventListener("online", onBrowserOnline);
    window.addEventListener("offline", onBrowserOffline);

    // One offset estimate per page, shared by every live clock on it (rotation pages hold several).
    var sc = Tourney.serverClock;
    if (sc && !sc._timer) sc.start({ interval: opts.resyncMs || 5 * 60 * 1000 });
    document.addEventListener("tourney:clocksync", function () { render(true); });

    if (reportOnline && Tourney.setOnline && !opts.eventsUrl) Tourney.setOnline(online);
    connect();
    if (!opts.eventsUrl && opts.snapshotUrl) refresh();
    frame = window.requestAnimationFrame(loop);
    render(true);

    return {
      view: computeView,
      setClock: function (clock) { return setClock(clock, clock && clock.reason); },
      setPeriods: setPeriods,
      refresh: refresh,
      render: function () { render(true); },
      isOnline: function () { return online; },
      stop: function () {
        stopped = true;
        if (frame) window.cancelAnimationFrame(frame);
        if (source) source.close();
        source = null;
        window.clearTimeout(retryTimer);
        window.removeEventListener("online", onBrowserOnline);
        window.removeEventListener("offline", onBrowserOffline);
      },
    };
  };

  Tourney.liveClock.formatSeconds = formatSeconds;
  Tourney.liveClock.effective = effective;
})(window, document);
