/*!
 * console-tabs.js: the console's tools as tabs (templates/tourney/console.html, issue 32). The
 * first screen keeps the clock, the to-do and the tables; the bust-out, hand-for-hand,
 * penalties, absent players, payouts, the screens' message, the activity and the cancelling
 * are tabs under them, one shown at a time. Each tab's key is its number (1-8, not while
 * typing); arrows move between tabs; the tab chosen last stays chosen on this console (session
 * storage), and #tool-<name> in the address opens that one. Otherwise the event's state chooses
 * (data-default-tool: the bust-out while it runs, the payouts once it is over). Tourney.openTool(name) opens one
 * from another script (B, the bust-out's key, opens its tab before focusing its search).
 */
(function (window, document) {
  "use strict";

  var tools = document.getElementById("console-tools");
  if (!tools) return;
  var tabs = Array.prototype.slice.call(tools.querySelectorAll('[role="tab"]'));
  if (!tabs.length) return;
  var remembered = "tourney.console.tool:" + window.location.pathname;

  // the tool the event's state calls for: the bust-out while it runs, the payouts once over
  var fallback = tools.querySelector("[data-default-tool]").getAttribute("data-default-tool");
  function has(name) { return tabs.some(function (t) { return t.dataset.tool === name; }); }

  // `keep`: the floor chose it (a tap, a key): remembered; the state's default is not
  function choose(name, focus, keep) {
    if (!has(name)) name = has(fallback) ? fallback : tabs[0].dataset.tool;
    tabs.forEach(function (tab) {
      var on = tab.dataset.tool === name;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.tabIndex = on ? 0 : -1;
      var panel = document.getElementById(tab.getAttribute("aria-controls"));
      if (panel) panel.hidden = !on;
      if (on && focus) tab.focus();
    });
    if (keep) {
      try { window.sessionStorage.setItem(remembered, name); } catch (e) { /* private mode */ }
    }
    return name;
  }

  tabs.forEach(function (tab, i) {
    if (i < 9) {
      var key = document.createElement("kbd");
      key.textContent = String(i + 1);
      tab.appendChild(document.createTextNode(" "));
      tab.appendChild(key);
      tab.setAttribute("aria-keyshortcuts", String(i + 1));
    }
    tab.addEventListener("click", function () { choose(tab.dataset.tool, false, true); });
    tab.addEventListener("keydown", function (e) {
      var step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      e.preventDefault();
      choose(tabs[(i + step + tabs.length) % tabs.length].dataset.tool, true, true);
    });
  });

  var asked = (window.location.hash.match(/^#tool-(\w+)/) || [])[1];
  var stored = null;
  try { stored = window.sessionStorage.getItem(remembered); } catch (e) { /* private mode */ }
  choose(asked || stored || fallback);

  var keys = {};
  tabs.slice(0, 9).forEach(function (tab, i) {
    keys[String(i + 1)] = function () {
      choose(tab.dataset.tool, true, true);
      tools.scrollIntoView({ block: "nearest" });
    };
  });
  if (window.Tourney && window.Tourney.shortcuts) window.Tourney.shortcuts(keys);
  window.Tourney = window.Tourney || {};
  window.Tourney.openTool = function (name) { return choose(name, false, true); };
})(window, document);
