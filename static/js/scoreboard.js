/* The club room's scoreboard (/live/): full-screen button, "in aggiornamento" when the network
 * blips, and a 304 from the poll never blanks the board.
 *
 * No inline script (the site's Content-Security-Policy is script-src 'self'). htmx polls the
 * board every 2 s (hx-trigger="every 2s" on #board); the server answers 304 while nothing
 * changed, and htmx would swap that empty answer in: it is stopped here.
 */
(function () {
  "use strict";

  var STALE = "board-is-stale";

  function isBoard(event) {
    var elt = event.detail && event.detail.elt;
    return !!(elt && elt.id === "board");
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!isBoard(event)) { return; }
    var xhr = event.detail.xhr;
    var text = xhr ? xhr.responseText || "" : "";
    if (xhr && xhr.status === 304) {
      event.detail.shouldSwap = false; // nothing changed
    } else if (event.detail.shouldSwap && text.indexOf('id="board"') === -1) {
      event.detail.shouldSwap = false; // not a board (a login page...): never swap it in
      document.body.classList.add(STALE);
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isBoard(event)) { return; }
    var xhr = event.detail.xhr;
    var ok = xhr && (xhr.status === 304 || (xhr.status >= 200 && xhr.status < 300));
    document.body.classList.toggle(STALE, !ok);
  });

  ["htmx:sendError", "htmx:responseError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (isBoard(event)) { document.body.classList.add(STALE); }
    });
  });

  // -- full screen (Fullscreen API), when the browser offers it ---------------------------------
  function setupFullscreen() {
    var button = document.querySelector("[data-fullscreen]");
    var root = document.documentElement;
    if (!button || !root.requestFullscreen) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      if (document.fullscreenElement) {
        document.exitFullscreen();
      } else {
        root.requestFullscreen().catch(function () { /* refused: stay as we are */ });
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setupFullscreen);
  } else {
    setupFullscreen();
  }
})();
