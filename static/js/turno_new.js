/* The new-turno form (no inline script: the page runs under a CSP without 'unsafe-inline').
 * - The "Primo mazziere" options follow the players chosen: each option is named after the
 *   player of its seat; empty seats are disabled.
 * - With a datalist (a large club), a name not among the members is marked "socio nuovo".
 * - A date before the season's last closed giornata shows the back-dated warning at once.
 * - The seats' legend and help follow the chosen season's game (how many players, direction). */
(function () {
  "use strict";
  var form = document.querySelector("form.turno-new");
  if (!form) return;
  var dealer = form.querySelector("select[name=first_dealer_seat]");
  var members = {};
  form.querySelectorAll("#kc-members option").forEach(function (o) {
    members[o.value.trim().toLowerCase()] = true;
  });

  function seatName(row) {
    var sel = row.querySelector("select");
    if (sel && sel.value) return sel.options[sel.selectedIndex].text.trim();
    var text = row.querySelector("input[type=text]");
    return text ? text.value.replace(/\s+/g, " ").trim() : "";
  }

  function syncDealer() {
    if (!dealer) return;
    form.querySelectorAll(".seat-row[data-seat]").forEach(function (row) {
      var seat = row.getAttribute("data-seat");
      var name = seatName(row);
      var option = dealer.querySelector("option[value='" + seat + "']");
      if (option) {
        option.textContent = name || "—";
        option.disabled = !name && !option.selected;
        option.hidden = !name;
      }
      var note = row.querySelector(".new-member");
      if (note) note.hidden = !name || members[name.toLowerCase()] === true;
    });
    var chosen = dealer.options[dealer.selectedIndex];
    if (chosen && chosen.hidden) {
      var first = Array.prototype.find.call(dealer.options, function (o) { return !o.hidden; });
      if (first) dealer.value = first.value;
    }
  }

  var lastClosed = {};
  try { lastClosed = JSON.parse(form.getAttribute("data-last-closed") || "{}"); } catch (e) {}
  var warning = document.getElementById("backdated-warning");
  var season = form.querySelector("[name=season]");
  var date = form.querySelector("[name=date]");

  function syncWarning() {
    if (!warning || !season || !date) return;
    var last = lastClosed[season.value];
    var back = Boolean(last && date.value && date.value < last);
    warning.hidden = !back;
    if (back) {
      var parts = last.split("-");
      warning.querySelector(".last-date").textContent = parts[2] + "/" + parts[1] + "/" + parts[0];
    }
  }

  // the legend and the help of the seats follow the chosen season's game (players, direction)
  var tables = {};
  try { tables = JSON.parse(form.getAttribute("data-tables") || "{}"); } catch (e) {}
  var legend = form.querySelector(".table-legend");
  var help = form.querySelector(".table-help");

  function syncTable() {
    var table = season && tables[season.value];
    if (!table) return;
    if (legend) legend.textContent = table.legend;
    if (help) help.textContent = table.help;
  }

  form.addEventListener("input", function () { syncDealer(); syncWarning(); syncTable(); });
  form.addEventListener("change", function () { syncDealer(); syncWarning(); syncTable(); });
  syncDealer();
  syncWarning();
  syncTable();
})();
