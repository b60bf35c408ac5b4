/*!
 * player-sw.js: the service worker of the players' pages (served at /p/sw.js, scope /p/).
 * Network first for the page, its state and its static files, each successful answer kept in
 * the cache; offline, the last kept answer is shown (the page then says it is offline and
 * shows the last known seat and clock). The event stream is never cached.
 */
"use strict";

var CACHE = "tourney-player-v1";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function cacheable(request) {
  if (request.method !== "GET") return false;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  if (url.pathname.indexOf("/api/") === 0) return url.pathname === "/api/v1/time";
  return url.pathname.indexOf("/p/") === 0 || url.pathname.indexOf("/static/") === 0;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (!cacheable(request) || request.url.indexOf("/api/v1/time") !== -1) return;
  event.respondWith(
    fetch(request).then(
      function (response) {
        if (response.ok) {
          var copy = response.clone();
          caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      },
      function () {
        return caches.match(request).then(function (hit) {
          return hit || new Response("", { status: 503, statusText: "offline" });
        });
      }
    )
  );
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then(function (list) {
      if (list.length) return list[0].focus();
      return self.clients.openWindow(self.registration.scope);
    })
  );
});
