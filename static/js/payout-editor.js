/*!
 * payout-editor.js: the payout-structure editor (templates/tourney/payout_structure_edit.html),
 * in the manner of structure-editor.js. #payout-config (json_script):
 *   {id, structure: {name, brackets: [{min_entries, max_entries, percents}]}, editable, i18n, edit_url}
 * Each table's first entry count follows the one before (no gaps); its last is typed (empty on
 * the last table: no limit). Percentages are typed per place; each table's total updates at
 * once (exact, in millionths), and POST /api/v1/payout-structures/preview (debounced) gives the
 * first error (its table outlined) and the sample pool's amounts. Save = PUT (POST when new).
 * Keys: ↑/↓/Enter move between places; Alt+P adds a place, Alt+T a table; Ctrl+S saves.
 */
(function (window, document) {
  "use strict";

  var config = JSON.parse(document.getElementById("payout-config").textContent);
  var T = config.i18n;
  var editable = !!config.editable;
  var API = "/api/v1/payout-structures";
  var state = {
    name: config.structure.name,
    brackets: config.structure.brackets.map(function (b) {
      return { max: b.max_entries, percents: b.percents.slice() };
    }),
  };
  var check = null;
  var dirty = false;
  var timer = null;
  var seq = 0;
  var root = document.getElementById("payout-brackets");

  function fmt(n) { return Tourney.formatNumber(n); }
  function tr(text, params) { return text.replace(/%\((\w+)\)s/g, function (_m, k) { return params[k]; }); }
  function digits(text) { var d = String(text).replace(/[^\d]/g, ""); return d ? parseInt(d, 10) : null; }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (k === "className") e.className = attrs[k]; else e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  /** "12,5" or "12.5" -> millionths, or null when it is not a number with at most 4 decimals. */
  function millionths(text) {
    var s = String(text).trim().replace(",", ".");
    if (!/^\d+(\.\d{0,4})?$/.test(s)) return null;
    var parts = s.split(".");
    return parseInt(parts[0], 10) * 10000 + parseInt(((parts[1] || "") + "0000").slice(0, 4), 10);
  }
  function percentText(m) {
    var whole = Math.floor(m / 10000), frac = String(m % 10000);
    frac = ("0000" + frac).slice(-4).replace(/0+$/, "");
    return frac ? whole + "." + frac : String(whole);
  }
  function minOf(i) { return i === 0 ? 1 : (state.brackets[i - 1].max || 0) + 1; }

  function payload() {
    return {
      name: state.name,
      brackets: state.brackets.map(function (b, i) {
        return { min_entries: minOf(i), max_entries: i === state.brackets.length - 1 && !b.max ? null : b.max, percents: b.percents.map(function (p) { return String(p).trim().replace(",", ".") || "0"; }) };
      }),
    };
  }

  /* ------------------------------------------------------------ rendering */

  function render(focus) {
    root.textContent = "";
    state.brackets.forEach(function (b, i) {
      var card = el("section", { className: "card payout-bracket", "data-index": String(i) });
      var head = el("div", { className: "payout-bracket-head" });
      var first = el("div", { className: "field" });
      first.appendChild(el("label", {}, T.firstEntries));
      var minInput = el("input", { className: "num", disabled: "disabled", "data-field": "min" });
      minInput.value = fmt(minOf(i));
      first.appendChild(minInput);
      head.appendChild(first);
      var last = el("div", { className: "field" });
      last.appendChild(el("label", { for: "max-" + i }, T.lastEntries));
      var maxInput = el("input", { id: "max-" + i, className: "num", inputmode: "numeric", "data-field": "max", autocomplete: "off" });
      maxInput.value = b.max ? String(b.max) : "";
      if (!editable) maxInput.disabled = true;
      last.appendChild(maxInput);
      head.appendChild(last);
      head.appendChild(el("span", { className: "payout-bracket-places muted" }, b.percents.length === 1 ? T.onePlacePaid : tr(T.placesPaid, { n: b.percents.length })));
      head.appendChild(el("span", { className: "payout-bracket-total num", "data-total": String(i) }));
      card.appendChild(head);
      var table = el("table", { className: "data-table compact payout-places" });
      var thead = el("thead");
      var hr = el("tr");
      hr.appendChild(el("th", { className: "num" }, T.place));
      hr.appendChild(el("th", { className: "num" }, T.percent));
      hr.appendChild(el("th", { className: "num" }, T.amount));
      thead.appendChild(hr);
      table.appendChild(thead);
      var body = el("tbody");
      b.percents.forEach(function (p, k) {
        var row = el("tr", { "data-place": String(k + 1) });
        row.appendChild(el("td", { className: "num" }, String(k + 1)));
        var td = el("td", { className: "num" });
        var input = el("input", { className: "cell-input num", inputmode: "decimal", "data-field": "percent", "data-place": String(k), autocomplete: "off", "aria-label": T.place + " " + (k + 1) + " %" });
        input.value = p;
        if (!editable) input.disabled = true;
        td.appendChild(input);
        row.appendChild(td);
        row.appendChild(el("td", { className: "num col-amount", "data-amount": String(k) }));
        body.appendChild(row);
      });
      table.appendChild(body);
      card.appendChild(table);
      if (editable) {
        var foot = el("div", { className: "payout-bracket-foot" });
        foot.appendChild(el("button", { type: "button", className: "btn btn-secondary btn-sm", "data-action": "add-place" }, T.addPlace));
        var less = el("button", { type: "button", className: "btn btn-ghost btn-sm", "data-action": "remove-place" }, T.removePlace);
        if (b.percents.length <= 1) less.disabled = true;
        foot.appendChild(less);
        var drop = el("button", { type: "button", className: "btn btn-ghost btn-sm", "data-action": "remove-bracket" }, T.removeTable);
        if (state.brackets.length <= 1) drop.disabled = true;
        foot.appendChild(drop);
        card.appendChild(foot);
      }
      root.appendChild(card);
    });
    derived();
    if (focus) focusCell(focus.bracket, focus.place);
  }

  function derived() {
    state.brackets.forEach(function (b, i) {
      var card = root.querySelector('[data-index="' + i + '"]');
      if (!card) return;
      card.querySelector('[data-field="min"]').value = fmt(minOf(i));
      var total = 0, bad = false;
      b.percents.forEach(function (p) { var m = millionths(p); if (m === null) bad = true; else total += m; });
      var box = card.querySelector("[data-total]");
      box.textContent = T.total + " " + (bad ? "?" : percentText(total)) + " %";
      box.classList.toggle("is-ok", !bad && total === 1000000);
      box.classList.toggle("is-bad", bad || total !== 1000000);
      var server = check && check.brackets[i];
      b.percents.forEach(function (_p, k) {
        var cell = card.querySelector('[data-amount="' + k + '"]');
        cell.textContent = server && server.amounts && server.amounts[k] !== undefined ? fmt(server.amounts[k]) : "";
      });
      card.classList.toggle("has-error", !!(check && check.error && check.error.bracket === i));
      Array.prototype.forEach.call(card.querySelectorAll("tr[data-place]"), function (row) {
        row.classList.toggle("has-error", !!(check && check.error && check.error.bracket === i && check.error.place === Number(row.getAttribute("data-place"))));
      });
    });
    var box = document.getElementById("payout-error");
    box.textContent = "";
    if (check && check.error) {
      var alert = el("div", { className: "alert bad", role: "alert", id: "payout-error-detail" });
      alert.appendChild(el("p", { className: "alert-title" }, T.fixFirst));
      alert.appendChild(el("p", {}, check.error.detail));
      box.appendChild(alert);
    } else if (check && editable && dirty) {
      box.appendChild(el("div", { className: "alert ok", id: "payout-ready" }, T.ready));
    }
  }

  /* ------------------------------------------------------------ preview and save */

  function schedule() { window.clearTimeout(timer); timer = window.setTimeout(preview, 250); }

  function preview() {
    var mine = ++seq;
    var body = payload();
    body.sample_pool = digits(document.getElementById("sample-pool").value) || 0;
    body.unit = digits(document.getElementById("sample-unit").value) || 1;
    Tourney.fetchJSON(API + "/preview", { method: "POST", body: body }).then(function (result) {
      if (mine !== seq) return;
      check = result;
      derived();
    }, function (err) {
      if (mine !== seq || err.code === "network") return;
      check = { valid: false, error: { detail: err.detail, bracket: null }, brackets: [] };
      derived();
    });
  }

  function setDirty(value) {
    dirty = value;
    var badge = document.getElementById("save-state");
    if (!badge) return;
    badge.className = "badge " + (value || !config.id ? "warn" : "ok");
    badge.textContent = value ? badge.getAttribute("data-dirty") : badge.getAttribute("data-saved");
  }

  function changed(structural, focus) {
    setDirty(true);
    if (structural) render(focus); else derived();
    schedule();
  }

  var saving = false;
  function save() {
    if (!editable || saving) return;
    saving = true;
    var isNew = !config.id;
    Tourney.fetchJSON(isNew ? API : API + "/" + config.id, { method: isNew ? "POST" : "PUT", body: payload() }).then(function (out) {
      saving = false;
      setDirty(false);
      if (isNew) { window.location.href = config.edit_url.replace("/0/", "/" + out.id + "/"); return; }
      document.getElementById("payout-structure-title").textContent = out.name;
      Tourney.toast(T.saved, { kind: "ok" });
      preview();
    }, function (err) {
      saving = false;
      Tourney.toast(err.detail || err.message, { kind: "bad" });
      preview();
    });
  }

  /* ------------------------------------------------------------ editing */

  function indexOf(node) {
    var card = node && node.closest ? node.closest(".payout-bracket") : null;
    return card ? parseInt(card.getAttribute("data-index"), 10) : -1;
  }

  function focusCell(bracket, place) {
    var card = root.querySelector('[data-index="' + bracket + '"]');
    var input = card && card.querySelector('input[data-place="' + place + '"]');
    if (input) { input.focus(); input.select(); }
  }

  function addPlace(i) {
    var b = state.brackets[i];
    b.percents.push("0");
    changed(true, { bracket: i, place: b.percents.length - 1 });
  }

  function addBracket(after) {
    var at = after + 1;
    var prev = state.brackets[after];
    var start = prev ? (prev.max || minOf(after) + 9) + 1 : 1;
    if (prev && !prev.max) prev.max = start - 1;
    var percents = prev ? prev.percents.concat(["0"]) : ["100"];
    state.brackets.splice(at, 0, { max: at === state.brackets.length ? null : start + 9, percents: percents });
    changed(true, { bracket: at, place: percents.length - 1 });
  }

  root.addEventListener("input", function (e) {
    var i = indexOf(e.target);
    if (i < 0) return;
    var field = e.target.getAttribute("data-field");
    if (field === "percent") state.brackets[i].percents[Number(e.target.getAttribute("data-place"))] = e.target.value;
    else if (field === "max") state.brackets[i].max = digits(e.target.value);
    changed(false);
  });

  root.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button[data-action]");
    if (!button || button.disabled) return;
    var i = indexOf(button);
    var action = button.getAttribute("data-action");
    if (action === "add-place") addPlace(i);
    else if (action === "remove-place") { state.brackets[i].percents.pop(); changed(true, null); }
    else if (action === "remove-bracket") {
      state.brackets.splice(i, 1);
      if (i === state.brackets.length && state.brackets.length) state.brackets[i - 1].max = null;
      changed(true, null);
    }
  });

  root.addEventListener("keydown", function (e) {
    var i = indexOf(e.target);
    if (i < 0) return;
    if (e.altKey && e.code === "KeyP" && editable) { e.preventDefault(); addPlace(i); return; }
    if (e.altKey && e.code === "KeyT" && editable) { e.preventDefault(); addBracket(i); return; }
    if (e.target.getAttribute("data-field") !== "percent") return;
    var k = Number(e.target.getAttribute("data-place"));
    if (e.key === "ArrowDown" || (e.key === "Enter" && !e.shiftKey)) { e.preventDefault(); focusCell(i, k + 1); }
    else if (e.key === "ArrowUp" || (e.key === "Enter" && e.shiftKey)) { e.preventDefault(); focusCell(i, k - 1); }
  });

  var add = document.getElementById("add-bracket");
  if (add) add.addEventListener("click", function () { addBracket(state.brackets.length - 1); });
  var nameInput = document.getElementById("payout-name");
  nameInput.addEventListener("input", function () { state.name = nameInput.value; changed(false); });
  ["sample-pool", "sample-unit"].forEach(function (id) { document.getElementById(id).addEventListener("input", schedule); });
  var saveButton = document.getElementById("save-payout-structure");
  if (saveButton) saveButton.addEventListener("click", save);
  if (editable) {
    document.addEventListener("keydown", function (e) {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key && e.key.toLowerCase() === "s") { e.preventDefault(); save(); }
    });
    window.addEventListener("beforeunload", function (e) { if (dirty) { e.preventDefault(); e.returnValue = T.unsavedLeave; } });
  }

  render(null);
  setDirty(!config.id);
  preview();
})(window, document);
