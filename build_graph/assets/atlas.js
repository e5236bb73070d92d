/* MLSys Atlas: sortable, filterable tables on index pages.
   Runs on every page view, including instant-navigation ones, through
   Material's document$ observable. Builds controls with DOM APIs and
   textContent only: nothing from the data is parsed as HTML. */
(function () {
  "use strict";

  function cellValue(row, index, kind) {
    var text = row.cells[index] ? row.cells[index].textContent.trim() : "";
    if (kind === "number") { var n = parseFloat(text); return isNaN(n) ? -Infinity : n; }
    return text.toLocaleLowerCase();
  }

  function makeSortable(table) {
    var headers = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(headers, function (th, index) {
      var kind = th.getAttribute("data-sort");
      if (!kind) return;
      th.tabIndex = 0;
      th.setAttribute("role", "button");
      function sort() {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(headers, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a, index, kind), y = cellValue(b, index, kind);
          return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
        });
        var fragment = document.createDocumentFragment();
        rows.forEach(function (r) { fragment.appendChild(r); });
        body.appendChild(fragment);
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); }
      });
    });
  }

  function select(labelText, values) {
    var label = document.createElement("label");
    label.textContent = labelText;
    var box = document.createElement("select");
    var any = document.createElement("option");
    any.value = ""; any.textContent = "All";
    box.appendChild(any);
    values.forEach(function (v) {
      var option = document.createElement("option");
      option.value = v[0]; option.textContent = v[1];
      box.appendChild(option);
    });
    label.appendChild(box);
    return { label: label, box: box };
  }

  function makeFilters(holder) {
    var table = document.getElementById(holder.getAttribute("data-for"));
    if (!table || holder.childElementCount) return;
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var years = {}, venues = {};
    rows.forEach(function (r) {
      if (r.dataset.year) years[r.dataset.year] = true;
      if (r.dataset.venue) venues[r.dataset.venue] = true;
    });
    var techniqueOptions = JSON.parse(holder.getAttribute("data-techniques") || "[]");
    var text = document.createElement("label");
    text.textContent = "Title or author";
    var input = document.createElement("input");
    input.type = "search";
    text.appendChild(input);
    var yearFrom = select("From year", Object.keys(years).sort().map(function (y) { return [y, y]; }));
    var yearTo = select("To year", Object.keys(years).sort().map(function (y) { return [y, y]; }));
    var venue = select("Venue", Object.keys(venues).sort().map(function (v) { return [v, v]; }));
    var technique = select("Technique", techniqueOptions);
    var count = document.createElement("span");
    count.className = "atlas-table-count";
    count.setAttribute("aria-live", "polite");
    [text, yearFrom.label, yearTo.label, venue.label, technique.label, count].forEach(function (el) {
      holder.appendChild(el);
    });
    function apply() {
      var q = input.value.trim().toLocaleLowerCase(), shown = 0;
      rows.forEach(function (r) {
        var y = parseInt(r.dataset.year || "0", 10);
        var ok = (!q || r.textContent.toLocaleLowerCase().indexOf(q) !== -1)
          && (!yearFrom.box.value || y >= parseInt(yearFrom.box.value, 10))
          && (!yearTo.box.value || y <= parseInt(yearTo.box.value, 10))
          && (!venue.box.value || r.dataset.venue === venue.box.value)
          && (!technique.box.value ||
              (" " + r.dataset.techniques + " ").indexOf(" " + technique.box.value + " ") !== -1);
        r.hidden = !ok;
        if (ok) shown += 1;
      });
      count.textContent = shown + " of " + rows.length + " papers";
    }
    [input, yearFrom.box, yearTo.box, venue.box, technique.box].forEach(function (el) {
      el.addEventListener("input", apply);
      el.addEventListener("change", apply);
    });
    apply();
  }

  function init() {
    document.querySelectorAll("table.atlas-table").forEach(makeSortable);
    document.querySelectorAll(".atlas-table-filters").forEach(makeFilters);
  }

  if (typeof document$ !== "undefined") { document$.subscribe(init); }
  else { document.addEventListener("DOMContentLoaded", init); }
})();
