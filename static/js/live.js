/* The segretario's live screen (/segreteria/turni/<pk>/): keyboard, running check, reload-safe.
 *
 * No inline script and no on* attribute (the site's Content-Security-Policy forbids them): this
 * file listens on the document, so it keeps working when htmx swaps #live or #smazzata-fields.
 * The server stays the judge of every smazzata; this only saves the segretario a round trip.
 */
(function () {
  "use strict";

  var FORM = "#smazzata-form";
  var FIELDS = "smazzata-fields";
  var STORE = "kingclub:turno:";
  var pending = null; // what the segretario typed while a refresh of the fields was in flight
  var restored = {}; // storage keys already restored on this page (never loop)

  function form() { return document.querySelector(FORM); }
  // C.A.F.'s counts (count_0, ...), or the numbers in another game's box of counts
  function counts(root) { return Array.prototype.slice.call((root || document).querySelectorAll("input[name^='count_']")); }
  function numbers(box) { return Array.prototype.slice.call(box.querySelectorAll("input[name^='count_'], input[type='number']")); }
  function checked(root, name) {
    var el = (root || document).querySelector("input[name='" + name + "']:checked");
    return el ? el.value : "";
  }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k] === undefined ? "" : values[k]; });
  }

  // -- 1. Enter anywhere in the smazzata form records it --------------------------------------
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.isComposing || event.defaultPrevented) { return; }
    var f = form();
    var target = event.target;
    if (!f || !f.contains(target) || target.tagName !== "INPUT") { return; }
    event.preventDefault();
    submit(f);
  });

  function submit(f) {
    var fields = document.getElementById(FIELDS);
    if (fields && window.htmx) { window.htmx.trigger(fields, "htmx:abort"); } // the POST has every value
    var button = f.querySelector("button.big");
    if (f.requestSubmit) { f.requestSubmit(button); } else { button.click(); }
  }

  // -- nothing ever blanks the screen; counts typed during a refresh are kept -----------------
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || (target.id !== "live" && target.id !== FIELDS)) { return; }
    var text = event.detail.xhr ? event.detail.xhr.responseText || "" : "";
    if (event.detail.shouldSwap && text.indexOf('id="' + target.id + '"') === -1) {
      // not the fragment we asked for (a login page, a full page): never swap it into the screen
      event.detail.shouldSwap = false;
      window.location.reload();
      return;
    }
    if (target.id === FIELDS) {
      pending = { trump: checked(target, "trump"), counts: {} };
      counts(target).forEach(function (input) { pending.counts[input.name] = input.value; });
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    var fields = document.getElementById(FIELDS);
    if (pending && fields) {
      counts(fields).forEach(function (input) {
        if (Object.prototype.hasOwnProperty.call(pending.counts, input.name)) { input.value = pending.counts[input.name]; }
      });
      if (pending.trump) {
        var suit = fields.querySelector("input[name='trump'][value='" + pending.trump + "']");
        if (suit) { suit.checked = true; }
      }
    }
    if (pending) { pending = null; init(); save(); return; }
    init();
  });

  // -- 2. the running check beside the counts ------------------------------------------------
  // what the counts must make: C.A.F.'s box names its game's check (the server re-renders the
  // fields when the game changes); another game's box carries a check per value of the field
  // that decides it (the King family's contract), none where a chosen value asks no counts
  function currentCheck(box) {
    if (box.dataset.check !== "by") {
      return { kind: box.dataset.check, total: parseInt(box.dataset.total, 10), unit: box.dataset.unit };
    }
    var f = form();
    var skip = JSON.parse(box.dataset.checkSkip || "{}");
    for (var name in skip) {
      if (Object.prototype.hasOwnProperty.call(skip, name) && skip[name].indexOf(checked(f, name)) !== -1) { return null; }
    }
    var checks = JSON.parse(box.dataset.checks || "{}");
    var value = checked(f, box.dataset.checkBy);
    var offered = Object.keys(checks);
    if (!value && offered.length === 1) { value = offered[0]; } // the one contract, obbligato
    return Object.prototype.hasOwnProperty.call(checks, value) ? checks[value] : null;
  }

  function runningCheck() {
    var box = document.querySelector("#" + FIELDS + " [data-check]");
    var out = document.querySelector("#" + FIELDS + " [data-count-check]");
    if (!box || !out) { return; }
    var check = currentCheck(box);
    if (!check) {
      out.textContent = "";
      out.dataset.state = "";
      return;
    }
    var total = check.total;
    var inputs = numbers(box);
    var values = inputs.map(function (i) { return i.value.trim(); }).filter(function (v) { return v !== ""; })
      .map(function (v) { return Number(v); });
    var state = "";
    var text;
    if (values.some(function (v) { return !Number.isInteger(v) || v < 0 || v > total; })) {
      text = fill(box.dataset.msgRange, { total: total });
      state = "bad";
    } else if (check.kind === "one_zero") {
      var zeros = values.filter(function (v) { return v === 0; }).length;
      if (zeros === 1) { text = box.dataset.msgZeroOne; state = "ok"; }
      else if (zeros > 1) { text = fill(box.dataset.msgZeroMany, { n: zeros }); state = "bad"; }
      else { text = box.dataset.msgZeroNone; state = values.length === inputs.length ? "bad" : ""; }
    } else {
      var sum = values.reduce(function (a, b) { return a + b; }, 0);
      text = fill(box.dataset.msgSum, { sum: sum, unit: check.unit, total: total });
      if (sum < total) { text += " · " + fill(box.dataset.msgMissing, { n: total - sum, unit: check.unit }); }
      else if (sum > total) { text += " · " + fill(box.dataset.msgOver, { n: sum - total, unit: check.unit }); state = "bad"; }
      else { state = "ok"; }
    }
    if (out.textContent !== text) { out.textContent = text; }
    out.dataset.state = state;
  }

  // -- 4. a reload keeps the work (sessionStorage, per turno and smazzata) --------------------
  function key(f) { return STORE + f.dataset.turno + ":" + f.dataset.mode + ":" + f.dataset.number; }

  // every field of the deal the segretario can type or choose (not the form's hidden fields)
  function fields(f) {
    return Array.prototype.slice.call(f.querySelectorAll("input[name]")).filter(function (input) {
      return ["hidden", "submit", "button", "reset", "image", "file"].indexOf(input.type) === -1;
    });
  }

  // {name: value}; a radio group as its checked value, a box as the list of its checked values
  function snapshot(f) {
    var values = {};
    fields(f).forEach(function (input) {
      if (input.type === "radio") {
        if (input.checked) { values[input.name] = input.value; }
      } else if (input.type === "checkbox") {
        values[input.name] = (values[input.name] || []).concat(input.checked ? [input.value] : []);
      } else {
        values[input.name] = input.value;
      }
    });
    return { values: values };
  }

  function save() {
    var f = form();
    if (!f) { return; }
    try { window.sessionStorage.setItem(key(f), JSON.stringify(snapshot(f))); } catch (e) { /* private mode */ }
  }

  function purge(f) {
    // a smazzata recorded (or a correction saved) is not work to keep any more
    var prefix = STORE + f.dataset.turno + ":";
    var stale = [];
    for (var i = 0; i < window.sessionStorage.length; i++) {
      var k = window.sessionStorage.key(i);
      if (k.indexOf(prefix) !== 0) { continue; }
      var parts = k.slice(prefix.length).split(":");
      if (f.dataset.mode === "nuova" && (parts[0] !== "nuova" || Number(parts[1]) < Number(f.dataset.number))) { stale.push(k); }
    }
    stale.forEach(function (k) { window.sessionStorage.removeItem(k); });
  }

  function restore(f) {
    var k = key(f);
    if (restored[k]) { return; }
    restored[k] = true;
    var saved;
    try { saved = JSON.parse(window.sessionStorage.getItem(k) || "null"); } catch (e) { saved = null; }
    if (!saved || f.hasAttribute("data-bound")) { return; } // the server shows what was posted
    var values = saved.values || {};
    var first = null;
    fields(f).forEach(function (input) {
      if (!Object.prototype.hasOwnProperty.call(values, input.name)) { return; }
      var want = values[input.name];
      var was = input.type === "radio" || input.type === "checkbox" ? input.checked : input.value;
      if (input.type === "radio") {
        if (input.value === want) { input.checked = true; }
      } else if (input.type === "checkbox") {
        input.checked = want.indexOf(input.value) !== -1;
      } else {
        input.value = want;
      }
      var now = input.type === "radio" || input.type === "checkbox" ? input.checked : input.value;
      if (now !== was && !first) { first = input; }
    });
    // the form as if typed: C.A.F.'s chiamante or game asks the server for its games and units
    // (the rest goes along), another game's preview sees the restored deal
    if (first) { first.dispatchEvent(new Event("change", { bubbles: true })); }
  }

  document.addEventListener("input", function (event) {
    if (form() && form().contains(event.target)) { runningCheck(); save(); }
  });
  document.addEventListener("change", function (event) {
    if (form() && form().contains(event.target)) { runningCheck(); save(); }
  });
  // -- 19. after a rejected smazzata, the error summary takes the focus ----------------------
  function focusErrors() {
    var summary = document.querySelector("[data-error-summary]");
    if (!summary || summary.dataset.shown) { return; }
    summary.dataset.shown = "1";
    summary.focus({ preventScroll: true });
    summary.scrollIntoView({ block: "start" });
  }

  function init() {
    var f = form();
    if (f) {
      try { purge(f); restore(f); } catch (e) { /* no sessionStorage */ }
    }
    runningCheck();
    focusErrors();
  }

  // once htmx has processed the page (a restored chiamante asks htmx for its games)
  document.addEventListener("htmx:load", function (event) { if (event.target === document.body) { init(); } });
  if (!window.htmx) { document.addEventListener("DOMContentLoaded", init); }
})();
