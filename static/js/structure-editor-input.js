/*!
 * structure-editor-input.js: the structure editor's keyboard, cell, chip, settings and button
 * events, and the first render. Loaded after structure-editor.js, whose state and functions it
 * takes from window.TourneyStructureEditor.
 *
 * Keyboard: ↑/↓/Enter move between rows in the same column; Alt+↑/↓ move the row; Alt+L / Alt+B
 * add a level / break below; Alt+D duplicates; Alt+Delete removes; Ctrl+S saves.
 */
(function (window, document) {
  "use strict";

  var E = window.TourneyStructureEditor;
  var config = E.config;
  var T = E.T;
  var editable = E.editable;
  var state = E.state;
  var tbody = E.tbody;
  var chipBody = E.chipBody;
  var fmt = E.fmt;
  var digits = E.digits;
  var secondsFrom = E.secondsFrom;
  var chipCss = E.chipCss;
  var rowIndexOf = E.rowIndexOf;
  var moveRow = E.moveRow;
  var addRow = E.addRow;
  var duplicateRow = E.duplicateRow;
  var removeRow = E.removeRow;
  var applySuggestion = E.applySuggestion;
  var shiftLevels = E.shiftLevels;
  var changed = E.changed;
  var renderRows = E.renderRows;
  var renderChips = E.renderChips;
  var refreshDerived = E.refreshDerived;
  var save = E.save;
  var setDirty = E.setDirty;
  var preview = E.preview;

  function moveFocus(from, step, field) {
    for (var i = from + step; i >= 0 && i < state.rows.length; i += step) {
      var tr_ = tbody.querySelectorAll("tr")[i];
      var target = tr_.querySelector('[data-field="' + field + '"]:not([disabled])');
      if (target) { target.focus(); target.select(); return; }
    }
  }

  tbody.addEventListener("keydown", function (e) {
    var i = rowIndexOf(e.target);
    if (i < 0) return;
    var field = e.target.getAttribute("data-field");
    var key = e.key;
    if (e.altKey && !e.ctrlKey && !e.metaKey) {
      var code = e.code;
      if (key === "ArrowUp" || key === "ArrowDown") { e.preventDefault(); if (editable) moveRow(i, key === "ArrowUp" ? -1 : 1); return; }
      if (!editable) return;
      if (code === "KeyL") { e.preventDefault(); addRow("level", i); return; }
      if (code === "KeyB") { e.preventDefault(); addRow("break", i); return; }
      if (code === "KeyD") { e.preventDefault(); duplicateRow(i); return; }
      if (key === "Delete" || key === "Backspace") { e.preventDefault(); removeRow(i); return; }
      return;
    }
    if (!field || e.ctrlKey || e.metaKey) return;
    if (key === "ArrowDown" || (key === "Enter" && !e.shiftKey)) { e.preventDefault(); moveFocus(i, 1, field); }
    else if (key === "ArrowUp" || (key === "Enter" && e.shiftKey)) { e.preventDefault(); moveFocus(i, -1, field); }
  });

  tbody.addEventListener("input", function (e) {
    var i = rowIndexOf(e.target);
    var field = e.target.getAttribute("data-field");
    if (i < 0 || !field) return;
    var row = state.rows[i];
    if (field === "minutes") row.seconds = secondsFrom(e.target.value);
    else row[field] = digits(e.target.value);
    changed(false);
  });

  tbody.addEventListener("focusin", function (e) {
    if (e.target.classList && e.target.classList.contains("cell-input")) {
      var tr_ = e.target.closest("tr");
      Array.prototype.forEach.call(tbody.querySelectorAll("tr.is-active"), function (r) { if (r !== tr_) r.classList.remove("is-active"); });
      tr_.classList.add("is-active");
    }
  });

  // numbers show with separators once you leave the cell
  tbody.addEventListener("focusout", function (e) {
    var i = rowIndexOf(e.target);
    var field = e.target.getAttribute && e.target.getAttribute("data-field");
    if (i < 0 || !field || field === "minutes") return;
    var v = state.rows[i][field];
    e.target.value = v ? fmt(v) : field === "ante" ? "0" : "";
  });

  tbody.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("button[data-action]") : null;
    if (!button || button.disabled) return;
    var i = rowIndexOf(button);
    var action = button.getAttribute("data-action");
    if (action === "up") moveRow(i, -1);
    else if (action === "down") moveRow(i, 1);
    else if (action === "duplicate") duplicateRow(i);
    else if (action === "remove") removeRow(i);
    else if (action === "toggle-chip") {
      var v = parseInt(button.getAttribute("data-value"), 10);
      var list = state.rows[i].colorUp;
      var at = list.indexOf(v);
      if (at === -1) list.push(v); else list.splice(at, 1);
      changed(true, null);
      var again = tbody.querySelectorAll("tr")[i].querySelector('[data-value="' + v + '"]');
      if (again) again.focus();
    } else if (action === "apply-suggestion") {
      if (applySuggestion(i)) {
        changed(true, null);
        Tourney.toast(T.applied, { kind: "ok" });
      }
    }
  });

  /* ------------------------------------------------------------ chips and settings */

  chipBody.addEventListener("input", function (e) {
    var tr_ = e.target.closest("tr[data-chip]");
    if (!tr_) return;
    var chip = state.chips[parseInt(tr_.getAttribute("data-chip"), 10)];
    var field = e.target.getAttribute("data-chip-field");
    if (field === "value") {
      var old = chip.value;
      chip.value = digits(e.target.value);
      // a break that colored up the old value now colors up the new one
      state.rows.forEach(function (r) { r.colorUp = r.colorUp.map(function (v) { return v === old ? chip.value : v; }); });
      changed(false);
      renderRowsKeepFocus();
    } else {
      chip.color = e.target.value;
      tr_.querySelector(".chip-dot").style.setProperty("--chip", chipCss(chip.color));
      changed(false);
      renderRowsKeepFocus();
    }
  });

  function renderRowsKeepFocus() {
    var active = document.activeElement;
    renderRows(null);
    if (active && document.body.contains(active)) active.focus();
  }

  chipBody.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest('button[data-action="remove-chip"]') : null;
    if (!button) return;
    var i = parseInt(button.closest("tr").getAttribute("data-chip"), 10);
    var value = state.chips[i].value;
    state.chips.splice(i, 1);
    state.rows.forEach(function (r) { r.colorUp = r.colorUp.filter(function (v) { return v !== value; }); });
    renderChips();
    changed(true, null);
  });

  function bindSetting(id, apply) {
    var input = document.getElementById(id);
    if (!input) return;
    input.addEventListener("input", function () { apply(input.value); changed(false); });
  }
  bindSetting("structure-name", function (v) { state.name = v; });
  bindSetting("structure-description", function (v) { state.description = v; });
  bindSetting("starting-stack", function (v) { state.startingStack = digits(v) || null; });
  document.getElementById("start-time").addEventListener("input", refreshDerived);

  function on(id, handler) {
    var node = document.getElementById(id);
    if (node) node.addEventListener("click", handler);
  }
  function activeRow() {
    var i = rowIndexOf(document.activeElement);
    if (i >= 0) return i;
    var marked = tbody.querySelector("tr.is-active");
    return marked ? parseInt(marked.getAttribute("data-index"), 10) : state.rows.length - 1;
  }
  on("add-level", function () { addRow("level", activeRow()); });
  on("add-break", function () { addRow("break", activeRow()); });
  on("shift-up", function () { shiftLevels(secondsFrom(document.getElementById("shift-minutes").value) / 60); });
  on("shift-down", function () { shiftLevels(-secondsFrom(document.getElementById("shift-minutes").value) / 60); });
  on("apply-all-suggestions", function () {
    var any = false;
    state.rows.forEach(function (r, i) { if (r.kind === "break" && applySuggestion(i)) any = true; });
    if (any) { changed(true, null); Tourney.toast(T.applied, { kind: "ok" }); }
  });
  on("add-chip", function () {
    var largest = state.chips.reduce(function (m, c) { return Math.max(m, c.value); }, 0);
    var used = state.chips.map(function (c) { return c.color; });
    var color = Object.keys(config.colors).filter(function (n) { return used.indexOf(n) === -1; })[0] || "white";
    state.chips.push({ value: largest ? largest * 5 : 25, color: color });
    renderChips();
    changed(true, null);
    var inputs = chipBody.querySelectorAll('[data-chip-field="value"]');
    if (inputs.length) { inputs[inputs.length - 1].focus(); inputs[inputs.length - 1].select(); }
  });
  on("save-structure", save);

  if (editable) {
    // Ctrl+S saves from anywhere, also while typing in a cell (Tourney.shortcuts skips fields).
    document.addEventListener("keydown", function (e) {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key && e.key.toLowerCase() === "s") {
        e.preventDefault();
        save();
      }
    });
    window.addEventListener("beforeunload", function (e) {
      if (!E.isDirty()) return;
      e.preventDefault();
      e.returnValue = T.unsavedLeave;
    });
  }

  renderChips();
  renderRows(null);
  setDirty(!config.id);
  E.setDirtyFlag(!config.id);
  preview();
})(window, document);
