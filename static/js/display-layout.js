/*!
 * display-layout.js: what keeps a lobby screen whole, whatever it holds (issue 13).
 *
 *   [data-fit]        one line of text that must show whole (a title, "50 000 / 100 000
 *                     (100 000)", a winner's name): its font shrinks until it fits its box,
 *                     down to half its CSS size. data-fit="wrap": down to 70 %, then it
 *                     wraps (a long tournament name on a portrait screen); data-fit="height":
 *                     a box whose children are sized in em shrinks until they fit its height.
 *   [data-pager="s"]  a list in a box of fixed size (overflow hidden): its items are cut into
 *                     the pages that fit the box, shown in turn for `s` seconds each; the
 *                     [data-pager-count] of its [data-pager-panel] says "2/3". A box that does
 *                     not clip (a phone, where the page scrolls) shows everything. The list
 *                     gets [data-paged] once laid out (tests wait for it).
 *
 * Tourney.layout(root) lays out everything under `root` again: call it after changing what a
 * screen shows or which parts of it are visible. It runs by itself on load, on resize and after
 * an htmx swap.
 */
(function (window, document) {
  "use strict";

  var Tourney = (window.Tourney = window.Tourney || {});
  var FIT_FLOOR = 0.5;
  var WRAP_FLOOR = 0.7;

  function all(root, selector) {
    var found = Array.prototype.slice.call((root || document).querySelectorAll(selector));
    if (root && root.matches && root.matches(selector)) found.unshift(root);
    return found;
  }

  /** Shrink `el`'s font until its content fits its width (an element that is not shown is
   * left alone; it is fitted again when it shows). */
  function fit(el) {
    var mode = el.getAttribute("data-fit");
    el.style.fontSize = "";
    el.style.whiteSpace = "";
    if (el.getClientRects().length === 0) return;
    var size = parseFloat(window.getComputedStyle(el).fontSize);
    var floor = size * (mode === "wrap" ? WRAP_FLOOR : FIT_FLOOR);
    // not a pixel over: an ellipsis shows at the first one ("40,0…" on the TV)
    var over = mode === "height"
      ? function () { return el.scrollHeight > el.clientHeight; }
      : function () { return el.scrollWidth > el.clientWidth; };
    var shrink = function (to) {
      for (var guard = 0; guard < 40 && over() && size > to; guard++) {
        size = Math.max(to, size * 0.95);
        el.style.fontSize = size.toFixed(2) + "px";
      }
    };
    shrink(floor);
    if (mode === "wrap" && over()) {
      el.style.whiteSpace = "normal";
      // one word longer than the line ("ÁTLAGSTACK" in a quarter of the row) cannot wrap
      shrink(size * FIT_FLOOR / WRAP_FLOOR);
    }
  }

  function Pager(list) {
    this.list = list;
    this.seconds = parseFloat(list.getAttribute("data-pager")) || 10;
    var panel = list.closest("[data-pager-panel]");
    this.counter = panel ? panel.querySelector("[data-pager-count]") : null;
    // A list swapped in anew (find your seat, refreshed every 20 s) goes on from the page its
    // predecessor showed: else with many names the later pages would never come round.
    this.home = list.parentElement;
    this.page = (this.home && this.home._pagerPage) || 0;
    this.pages = [];
    this.timer = null;
  }

  function clips(el) {
    var style = window.getComputedStyle(el);
    return style.overflowY !== "visible" || style.overflowX !== "visible";
  }

  Pager.prototype.layout = function () {
    var list = this.list;
    var items = Array.prototype.slice.call(list.children);
    items.forEach(function (item) { item.hidden = false; });
    var pages = [];
    if (!items.length || list.getClientRects().length === 0 || !clips(list)) {
      pages = [items];
    } else {
      // One layout per page: show what is left, keep the items inside the box, hide them.
      var rest = items;
      while (rest.length) {
        var box = list.getBoundingClientRect();
        var count = 0;
        for (; count < rest.length; count++) {
          var r = rest[count].getBoundingClientRect();
          if (r.bottom > box.bottom + 1 || r.right > box.right + 1 || r.left < box.left - 1) break;
        }
        var page = rest.slice(0, Math.max(1, count));
        page.forEach(function (item) { item.hidden = true; });
        pages.push(page);
        rest = rest.slice(page.length);
      }
    }
    this.pages = pages;
    if (this.page >= pages.length) this.page = 0;
    this.show();
    list.setAttribute("data-paged", "");
    this.schedule();
  };

  Pager.prototype.show = function () {
    if (this.home) this.home._pagerPage = this.page;
    var current = this.pages[this.page] || [];
    this.pages.forEach(function (page) {
      page.forEach(function (item) { item.hidden = current.indexOf(item) === -1; });
    });
    if (this.counter) {
      this.counter.textContent = this.pages.length > 1 ? this.page + 1 + "/" + this.pages.length : "";
    }
  };

  Pager.prototype.next = function () {
    if (this.pages.length < 2) return;
    this.page = (this.page + 1) % this.pages.length;
    this.show();
  };

  /** Turn the pages every `seconds`; a new layout (fresh numbers every few seconds on a busy
   * evening) keeps the running timer, or the first page would never turn. */
  Pager.prototype.schedule = function () {
    var self = this;
    if (self.pages.length < 2 && self.timer) {
      window.clearInterval(self.timer);
      self.timer = null;
    }
    if (self.pages.length > 1 && !self.timer) {
      self.timer = window.setInterval(function () {
        if (!document.body.contains(self.list)) {
          window.clearInterval(self.timer);
          return;
        }
        self.next();
      }, self.seconds * 1000);
    }
  };

  function pagerOf(list) {
    if (!list._pager) list._pager = new Pager(list);
    return list._pager;
  }

  /** Fit every [data-fit] and page every [data-pager] under `root` (default: the page). */
  function layout(root) {
    root = root || document.body;
    var fits = all(root, "[data-fit]");
    fits.forEach(function (el) { if (el.getAttribute("data-fit") === "height") fit(el); });
    fits.forEach(function (el) { if (el.getAttribute("data-fit") !== "height") fit(el); });
    all(root, "[data-pager]").forEach(function (list) { pagerOf(list).layout(); });
  }

  Tourney.layout = layout;
  Tourney.fitText = fit;
  Tourney.pagers = function (root) {
    return all(root || document.body, "[data-pager]").map(pagerOf);
  };

  var resizeTimer = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(function () { layout(); }, 150);
  });
  document.addEventListener("htmx:afterSettle", function (event) { layout(event.target); });
  function start() {
    layout();
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(function () { layout(); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(window, document);
