/*!
 * structure-editor.js: the blind structure editor (templates/clocks/structure_edit.html):
 * its state, rendering, preview and save. structure-editor-input.js (loaded after) binds the
 * keyboard, the cells' and buttons' events, and renders the first time.
 *
 * A table you type into like a spreadsheet. The page embeds #structure-config (json_script):
 *   {id, structure: <POST /api/v1/structures body>, editable, locked_through, colors, i18n, edit_url}
 * State lives here; every change re-computes the totals at once and asks the server
 * (POST /api/v1/structures/preview, debounced) for the first error, warnings and the color-up
 * suggestion, so the rules live in one place (clocks/domain). Save = PUT (or POST for a new one).
 * Rows up to `locked_through` are in play in a tournament: shown, never editable or movable.
 *
 * Keyboard: ↑/↓/Enter move between rows in the same column; Alt+↑/↓ move the row; Alt+L / Alt+B
 * add a level / break below; Alt+D duplicates; Alt+Delete removes; Ctrl+S saves.
 */
(function (window, document) {
  "use strict";

  var config = JSON.parse(document.getElementById("structure-config").textContent);
  var T = config.i18n;
  var editable = !!config.editable;
  var locked = config.locked_through; // rows 0..locked are read-only
  var API = "/api/v1/structures";
  var PREVIEW_DELAY = 250;

  var src = config.structure;
  var state = {
    name: src.name || "",
    description: src.description || "",
    startingStack: src.starting_stack || null,
    chips: (src.chips || []).map(function (c) { return { value: c.value, color: c.color }; }),
    rows: src.levels.map(function (p) {
      return {
        kind: p.kind,
        sb: p.small_blind || 0,
        bb: p.big_blind || 0,
        ante: p.ante || 0,
        seconds: p.duration_seconds,
        colorUp: (p.color_up || []).slice(),
      };
    }),
  };
  var check = null; // last preview result
  var dirty = false;
  var previewTimer = null;
  var previewSeq = 0;

  var tbody = document.getElementById("structure-rows");
  var chipBody = document.getElementById("chip-rows");
  var problems = document.getElementById("structure-problems");

  /* ------------------------------------------------------------ helpers */

  function fmt(n) { return Tourney.formatNumber(n); }
  function tr(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (_m, k) { return params[k]; });
  }
  function digits(text) {
    var d = String(text).replace(/[^\d]/g, "");
    return d ? parseInt(d, 10) : 0;
  }
  function minutesOf(seconds) {
    var m = seconds / 60;
    return Math.round(m) === m ? String(m) : String(Math.round(m * 100) / 100);
  }
  function secondsFrom(text) {
    var m = parseFloat(String(text).replace(",", ".").replace(/[^\d.]/g, ""));
    return isFinite(m) ? Math.round(m * 60) : 0;
  }
  function durationText(seconds) {
    var total = Math.round(seconds / 60);
    var h = Math.floor(total / 60);
    var m = total % 60;
    return h ? tr(T.hoursMinutes, { h: h, m: (m < 10 ? "0" : "") + m }) : tr(T.minutes, { m: m });
  }
  function clockText(minutes) {
    var m = ((minutes % 1440) + 1440) % 1440;
    var h = Math.floor(m / 60);
    var mm = Math.floor(m % 60);
    return (h < 10 ? "0" : "") + h + ":" + (mm < 10 ? "0" : "") + mm;
  }
  /** The start time typed as 19:00, 19.00 or 1900 (24-hour); 19:00 until it parses. */
  function startMinutes() {
    var m = /^\s*(\d{1,2})\s*[:.h]?\s*(\d{2})?\s*$/.exec(document.getElementById("start-time").value);
    if (!m || parseInt(m[1], 10) > 23 || parseInt(m[2] || "0", 10) > 59) return 19 * 60;
    return parseInt(m[1], 10) * 60 + parseInt(m[2] || "0", 10);
  }
  function chipCss(color) {
    return config.colors[String(color).toLowerCase()] || color;
  }
  function isLocked(i) { return i <= locked; }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "className") e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function payload() {
    var body = {
      name: state.name,
      chips: state.chips.map(function (c) { return { value: c.value, color: c.color }; }),
      levels: state.rows.map(function (r) {
        if (r.kind === "break") {
          return { kind: "break", duration_seconds: r.seconds, color_up: r.colorUp.slice().sort(function (a, b) { return a - b; }) };
        }
        return { kind: "level", small_blind: r.sb, big_blind: r.bb, ante: r.ante, duration_seconds: r.seconds };
      }),
    };
    if (state.startingStack) body.starting_stack = state.startingStack;
    if (state.description) body.description = state.description;
    return body;
  }

  /* ------------------------------------------------------------ rendering */

  var LEVEL_COLS = ["sb", "bb", "ante", "minutes"];

  function cellInput(row, index, field, value, label) {
    var input = el("input", {
      type: "text",
      inputmode: field === "minutes" ? "decimal" : "numeric",
      className: "cell-input num",
      "data-field": field,
      "aria-label": label + " · " + (index + 1),
      autocomplete: "off",
    });
    input.value = field === "minutes" ? minutesOf(value) : value ? fmt(value) : field === "ante" ? "0" : "";
    if (!editable || isLocked(index)) input.disabled = true;
    return input;
  }

  function iconButton(action, label, path, disabled) {
    var b = el("button", { type: "button", className: "btn btn-ghost btn-sm btn-icon row-btn", "data-action": action, "aria-label": label, title: label });
    b.innerHTML = '<svg viewBox="0 0 20 20" fill="none" stroke="currentColor" stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">' + path + "</svg>";
    if (disabled) b.disabled = true;
    return b;
  }

  function chipsInPlayBefore(index) {
    var gone = {};
    for (var i = 0; i < index; i++) {
      if (state.rows[i].kind === "break") state.rows[i].colorUp.forEach(function (v) { gone[v] = true; });
    }
    return state.chips.map(function (c) { return c.value; }).filter(function (v) { return !gone[v]; }).sort(function (a, b) { return a - b; });
  }

  function renderRows(focus) {
    tbody.textContent = "";
    state.rows.forEach(function (row, i) {
      var tr_ = el("tr", { "data-index": String(i), className: "row-" + row.kind + (isLocked(i) ? " is-locked" : "") });
      var pos = el("td", { className: "col-pos num" }, String(i + 1));
      if (isLocked(i)) pos.setAttribute("title", T.locked);
      tr_.appendChild(pos);
      var lvl = el("td", { className: "col-level" });
      tr_.appendChild(lvl);
      if (row.kind === "level") {
        tr_.appendChild(wrap(cellInput(row, i, "sb", row.sb, T.level), "num col-sb"));
        tr_.appendChild(wrap(cellInput(row, i, "bb", row.bb, T.level), "num col-bb"));
        tr_.appendChild(wrap(cellInput(row, i, "ante", row.ante, T.level), "num col-ante"));
      } else {
        var cu = el("td", { colspan: "3", className: "col-colorup" });
        var line = el("div", { className: "colorup-line" });
        line.appendChild(el("span", { className: "colorup-label" }, T.colorUp));
        var inPlay = chipsInPlayBefore(i);
        if (!inPlay.length) line.appendChild(el("span", { className: "muted" }, T.noChipsToColorUp));
        inPlay.forEach(function (v) {
          var chip = state.chips.filter(function (c) { return c.value === v; })[0];
          var on = row.colorUp.indexOf(v) !== -1;
          var b = el("button", { type: "button", className: "chip-toggle", "data-action": "toggle-chip", "data-value": String(v), "aria-pressed": on ? "true" : "false" });
          var dot = el("span", { className: "chip-dot", "aria-hidden": "true" });
          dot.style.setProperty("--chip", chipCss(chip ? chip.color : "grey"));
          b.appendChild(dot);
          b.appendChild(document.createTextNode(fmt(v)));
          if (!editable || isLocked(i)) b.disabled = true;
          line.appendChild(b);
        });
        cu.appendChild(line);
        cu.appendChild(el("div", { className: "colorup-suggestion", "data-suggestion-for": String(i) }));
        tr_.appendChild(cu);
      }
      tr_.appendChild(wrap(cellInput(row, i, "minutes", row.seconds, T.level), "num col-min"));
      tr_.appendChild(el("td", { className: "num col-starts" }));
      var actions = el("td", { className: "col-actions" });
      if (editable) {
        var frozen = isLocked(i);
        var box = el("span", { className: "row-actions" });
        box.appendChild(iconButton("up", T.moveUp, '<path d="M10 15V5M5.5 9.5L10 5l4.5 4.5"/>', frozen || i === 0 || isLocked(i - 1)));
        box.appendChild(iconButton("down", T.moveDown, '<path d="M10 5v10M5.5 10.5L10 15l4.5-4.5"/>', frozen || i === state.rows.length - 1));
        box.appendChild(iconButton("duplicate", T.duplicate, '<rect x="7" y="7" width="9" height="9" rx="1.5"/><path d="M4 13V5.5A1.5 1.5 0 0 1 5.5 4H13"/>', false));
        box.appendChild(iconButton("remove", T.remove, '<path d="M5 5l10 10M15 5L5 15"/>', frozen));
        actions.appendChild(box);
      }
      tr_.appendChild(actions);
      tbody.appendChild(tr_);
    });
    refreshDerived();
    if (focus) focusCell(focus.index, focus.field);
  }

  function wrap(input, className) {
    var td = el("td", { className: className });
    td.appendChild(input);
    return td;
  }

  function renderChips() {
    chipBody.textContent = "";
    state.chips.forEach(function (chip, i) {
      var row = el("tr", { "data-chip": String(i) });
      var sw = el("td", { className: "chip-swatch-cell" });
      var dot = el("span", { className: "chip-dot chip-dot-lg", "aria-hidden": "true" });
      dot.style.setProperty("--chip", chipCss(chip.color));
      sw.appendChild(dot);
      row.appendChild(sw);
      var value = el("input", { type: "text", inputmode: "numeric", className: "cell-input num", "data-chip-field": "value", "aria-label": T.chipValue });
      value.value = chip.value ? fmt(chip.value) : "";
      var color = el("select", { "data-chip-field": "color", "aria-label": T.chipColour });
      var names = Object.keys(config.colors);
      if (names.indexOf(chip.color) === -1) names.unshift(chip.color);
      names.forEach(function (n) {
        var o = el("option", { value: n }, n);
        if (n === chip.color) o.selected = true;
        color.appendChild(o);
      });
      if (!editable) { value.disabled = true; color.disabled = true; }
      row.appendChild(wrap(value, "num"));
      row.appendChild(wrap(color, ""));
      var act = el("td", { className: "col-actions" });
      if (editable) act.appendChild(iconButton("remove-chip", T.remove, '<path d="M5 5l10 10M15 5L5 15"/>', false));
      row.appendChild(act);
      chipBody.appendChild(row);
    });
  }

  /** Level numbers, start times, totals, the stack in big blinds, suggestions and problems. */
  function refreshDerived() {
    var level = 0, breaks = 0, elapsed = 0, start = startMinutes();
    var rows = tbody.querySelectorAll("tr");
    state.rows.forEach(function (row, i) {
      var tr_ = rows[i];
      if (!tr_) return;
      var label = tr_.querySelector(".col-level");
      if (row.kind === "level") {
        level++;
        label.textContent = T.level + " " + level;
      } else {
        breaks++;
        label.textContent = tr(T.breakN, { n: breaks });
      }
      tr_.querySelector(".col-starts").textContent = clockText(start + elapsed / 60);
      elapsed += row.seconds;
    });
    document.getElementById("total-levels").textContent = fmt(level);
    document.getElementById("total-breaks").textContent = fmt(breaks);
    document.getElementById("total-time").textContent = durationText(elapsed);
    var end = start + elapsed / 60;
    document.getElementById("planned-end").textContent = clockText(end) + (end >= 1440 ? " " + T.nextDay : "");
    var first = state.rows.filter(function (r) { return r.kind === "level"; })[0];
    var bbInfo = document.getElementById("stack-in-bb");
    bbInfo.textContent = first && first.bb && state.startingStack
      ? tr(T.stackInBB, { bb: fmt(Math.round((state.startingStack / first.bb) * 10) / 10) })
      : "";
    var print = document.getElementById("print-sheet");
    if (print) print.setAttribute("href", print.getAttribute("href").split("?")[0] + "?start=" + encodeURIComponent(clockText(start)));
    renderCheck();
  }

  function suggestionFor(index) {
    if (!check) return null;
    var s = check.color_up_suggestion.filter(function (x) { return x.position === index; })[0];
    return s ? s.color_up : null;
  }

  function sameSet(a, b) {
    return a.length === b.length && a.every(function (v) { return b.indexOf(v) !== -1; });
  }

  function renderCheck() {
    Array.prototype.forEach.call(tbody.querySelectorAll("tr"), function (tr_) {
      tr_.classList.remove("has-error", "has-warning");
    });
    Array.prototype.forEach.call(tbody.querySelectorAll("[data-suggestion-for]"), function (box) {
      var i = parseInt(box.getAttribute("data-suggestion-for"), 10);
      var s = suggestionFor(i);
      box.textContent = "";
      if (!s) return;
      var same = sameSet(s, state.rows[i].colorUp);
      var text = s.length ? tr(T.suggested, { chips: s.map(fmt).join(", ") }) : T.suggestedNone;
      box.appendChild(el("span", { className: same ? "suggestion-ok" : "suggestion-text" }, same ? "✓ " + T.matchesSuggestion + " · " + text.replace(/^[^:]*:\s*/, "") : text));
      if (!same && editable && !isLocked(i)) {
        var b = el("button", { type: "button", className: "btn btn-secondary btn-sm apply-suggestion", "data-action": "apply-suggestion" }, T.apply);
        box.appendChild(b);
      }
    });
    problems.textContent = "";
    if (!check) return;
    var rows = tbody.querySelectorAll("tr");
    if (check.error) {
      var bad = el("div", { className: "alert bad", role: "alert", id: "structure-error" });
      bad.appendChild(el("p", { className: "alert-title" }, T.fixFirst));
      bad.appendChild(el("p", {}, check.error.detail));
      problems.appendChild(bad);
      if (check.error.row !== null && rows[check.error.row]) rows[check.error.row].classList.add("has-error");
    }
    if (check.warnings && check.warnings.length) {
      var warn = el("div", { className: "alert warn" });
      var ul = el("ul", { className: "problem-list" });
      check.warnings.forEach(function (w) {
        ul.appendChild(el("li", {}, w.detail));
        if (w.row !== null && rows[w.row]) rows[w.row].classList.add("has-warning");
      });
      warn.appendChild(ul);
      problems.appendChild(warn);
    }
    if (!check.error && !(check.warnings && check.warnings.length) && editable && dirty) {
      problems.appendChild(el("div", { className: "alert ok", id: "structure-ready" }, T.ready));
    }
  }

  /* ------------------------------------------------------------ preview and save */

  function schedulePreview() {
    window.clearTimeout(previewTimer);
    previewTimer = window.setTimeout(preview, PREVIEW_DELAY);
  }

  function preview() {
    var seq = ++previewSeq;
    return Tourney.fetchJSON(API + "/preview", { method: "POST", body: payload() }).then(
      function (result) {
        if (seq !== previewSeq) return;
        check = result;
        renderCheck();
      },
      function (err) {
        if (seq !== previewSeq || err.code === "network") return;
        check = { valid: false, error: { code: err.code, detail: err.detail, row: null }, warnings: [], color_up_suggestion: check ? check.color_up_suggestion : [] };
        renderCheck();
      }
    );
  }

  function setDirty(value) {
    dirty = value;
    var badge = document.getElementById("save-state");
    if (!badge) return;
    var isNew = !config.id;
    badge.className = "badge " + (value || isNew ? "warn" : "ok");
    badge.textContent = isNew ? badge.getAttribute("data-new") : value ? badge.getAttribute("data-dirty") : badge.getAttribute("data-saved");
  }

  function changed(structural, focus) {
    setDirty(true);
    if (structural) renderRows(focus);
    else refreshDerived();
    schedulePreview();
  }

  var saving = false;
  function save() {
    if (!editable || saving) return;
    saving = true;
    var button = document.getElementById("save-structure");
    button.classList.add("is-loading");
    var isNew = !config.id;
    var request = Tourney.fetchJSON(isNew ? API : API + "/" + config.id, { method: isNew ? "POST" : "PUT", body: payload() });
    request.then(
      function (out) {
        saving = false;
        button.classList.remove("is-loading");
        setDirty(false);
        if (isNew) {
          window.location.href = config.edit_url.replace("/0/", "/" + out.id + "/");
          return;
        }
        document.getElementById("structure-title").textContent = out.name;
        Tourney.toast(T.saved, { kind: "ok" });
        preview();
      },
      function (err) {
        saving = false;
        button.classList.remove("is-loading");
        Tourney.toast(err.detail || err.message, { kind: "bad" });
        preview();
      }
    );
  }

  /* ------------------------------------------------------------ row operations */

  function nextLevelAfter(index) {
    var prev = null;
    for (var i = index; i >= 0; i--) if (state.rows[i] && state.rows[i].kind === "level") { prev = state.rows[i]; break; }
    if (!prev) return { kind: "level", sb: 100, bb: 200, ante: 0, seconds: 20 * 60, colorUp: [] };
    // A guess the director then types over: the next step doubles the big blind.
    return { kind: "level", sb: prev.bb, bb: prev.bb * 2, ante: prev.ante ? prev.bb * 2 : 0, seconds: prev.seconds, colorUp: [] };
  }

  function insertAt(index) { return Math.max(index, locked + 1); }

  function addRow(kind, after) {
    var at = insertAt(after + 1);
    var row = kind === "break" ? { kind: "break", sb: 0, bb: 0, ante: 0, seconds: 10 * 60, colorUp: [] } : nextLevelAfter(at - 1);
    state.rows.splice(at, 0, row);
    changed(true, { index: at, field: kind === "break" ? "minutes" : "sb" });
  }

  function duplicateRow(i) {
    var copy = JSON.parse(JSON.stringify(state.rows[i]));
    if (copy.kind === "break") copy.colorUp = [];
    var at = insertAt(i + 1);
    state.rows.splice(at, 0, copy);
    changed(true, { index: at, field: currentField() || "minutes" });
  }

  function removeRow(i) {
    if (isLocked(i)) return;
    var levels = state.rows.filter(function (r) { return r.kind === "level"; }).length;
    if (state.rows[i].kind === "level" && levels <= 1) {
      Tourney.toast(T.lastLevel, { kind: "warn" });
      return;
    }
    state.rows.splice(i, 1);
    changed(true, { index: Math.min(i, state.rows.length - 1), field: currentField() || "minutes" });
  }

  function moveRow(i, step) {
    var j = i + step;
    if (isLocked(i) || j < 0 || j >= state.rows.length || isLocked(j)) return;
    var row = state.rows.splice(i, 1)[0];
    state.rows.splice(j, 0, row);
    changed(true, { index: j, field: currentField() || "minutes" });
  }

  function shiftLevels(minutes) {
    var delta = Math.round(minutes * 60);
    var touched = state.rows.filter(function (r, i) { return r.kind === "level" && !isLocked(i); });
    if (touched.some(function (r) { return r.seconds + delta <= 0; })) {
      Tourney.toast(T.cannotShorten, { kind: "warn" });
      return;
    }
    touched.forEach(function (r) { r.seconds += delta; });
    changed(true, null);
  }

  function applySuggestion(i) {
    var s = suggestionFor(i);
    if (!s || isLocked(i)) return false;
    state.rows[i].colorUp = s.slice();
    return true;
  }

  /* ------------------------------------------------------------ focus and keyboard */

  function currentField() {
    var a = document.activeElement;
    return a && a.getAttribute ? a.getAttribute("data-field") : null;
  }

  function focusCell(index, field) {
    var tr_ = tbody.querySelectorAll("tr")[index];
    if (!tr_) return;
    var input = tr_.querySelector('[data-field="' + field + '"]') || tr_.querySelector('[data-field="minutes"]');
    if (input && !input.disabled) {
      input.focus();
      input.select();
    } else if (tr_.querySelector("button:not([disabled])")) {
      tr_.querySelector("button:not([disabled])").focus();
    }
  }

  function rowIndexOf(node) {
    var tr_ = node && node.closest ? node.closest("tr[data-index]") : null;
    return tr_ ? parseInt(tr_.getAttribute("data-index"), 10) : -1;
  }


  /* ------------------------------------------------------------ shared with -input.js */

  window.TourneyStructureEditor = {
    config: config,
    T: T,
    editable: editable,
    state: state,
    tbody: tbody,
    chipBody: chipBody,
    fmt: fmt,
    digits: digits,
    secondsFrom: secondsFrom,
    chipCss: chipCss,
    rowIndexOf: rowIndexOf,
    moveRow: moveRow,
    addRow: addRow,
    duplicateRow: duplicateRow,
    removeRow: removeRow,
    applySuggestion: applySuggestion,
    shiftLevels: shiftLevels,
    changed: changed,
    renderRows: renderRows,
    renderChips: renderChips,
    refreshDerived: refreshDerived,
    save: save,
    setDirty: setDirty,
    preview: preview,
    isDirty: function () { return dirty; },
    setDirtyFlag: function (value) { dirty = value; },
  };
})(window, document);
