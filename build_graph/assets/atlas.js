/* MLSys Atlas: sortable tables, and the papers table paged from its JSON.
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

  /* A filter of the page (templates/papers_index.html), its options added. */
  function select(holder, name, values) {
    var box = holder.querySelector('select[name="' + name + '"]');
    values.forEach(function (v) {
      var option = document.createElement("option");
      option.value = v[0]; option.textContent = v[1];
      box.appendChild(option);
    });
    return { box: box };
  }

  /* The papers table: every row comes from the JSON at data-src (format in
     render/indexes.py: papers_table) and is shown PAGE rows at a time, after
     filtering and sorting the data in memory; the HTML held only the newest. */
  var PAGE = 100;

  function link(pattern, id) { return pattern.split("{}").join(encodeURIComponent(id)); }

  function cell(row, content) {
    var td = document.createElement("td");
    if (content !== undefined) td.textContent = content;
    row.appendChild(td);
    return td;
  }

  function anchor(text, href) {
    var a = document.createElement("a");
    a.href = href; a.textContent = text;
    return a;
  }

  function makeDataTable(table) {
    var holder = document.querySelector('.atlas-table-filters[data-for="' + table.id + '"]');
    var pagerBox = document.querySelector('.atlas-table-pager[data-for="' + table.id + '"]');
    if (!holder || holder.hasAttribute("data-ready")) return;
    holder.setAttribute("data-ready", "");
    fetch(table.getAttribute("data-src")).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (data) { showData(table, holder, pagerBox, data); })
      .catch(function () { /* the HTML rows stay: the newest papers and the links to the data */ });
  }

  function showData(table, holder, pagerBox, data) {
    var paperLink = table.getAttribute("data-paper-link");
    var techniqueLink = table.getAttribute("data-technique-link");
    var rows = data.papers.map(function (p, order) {
      return { slug: p[0], title: p[1], authors: p[2], venue: p[3] < 0 ? "" : data.venues[p[3]],
               year: p[4], techniques: p[5], untitled: p[6], order: order,
               text: (p[1] + " " + p[2]).toLocaleLowerCase() };
    });
    var years = {};
    rows.forEach(function (r) { if (r.year) years[r.year] = true; });
    var yearList = Object.keys(years).sort().map(function (y) { return [y, y]; });
    var input = holder.querySelector('input[name="q"]');
    var yearFrom = select(holder, "from", yearList);
    var yearTo = select(holder, "to", yearList);
    var venue = select(holder, "venue", data.venues.map(function (v, i) { return [String(i), v]; }));
    var technique = select(holder, "technique", data.techniques.map(function (t, i) { return [String(i), t[1], t[2]]; })
      .filter(function (t) { return t[2]; }));
    var count = holder.parentNode.querySelector(".atlas-table-count");
    holder.classList.add("atlas-ready");
    var more = table.parentNode.querySelector(".atlas-table-more");
    if (more) more.hidden = true;
    var keys = ["title", "authors", "venue", "year"];
    var sortKey = null, ascending = true, page = 0, shown = rows;
    var headers = table.tHead.rows[0].cells;

    function draw() {
      var pages = Math.max(1, Math.ceil(shown.length / PAGE));
      page = Math.min(page, pages - 1);
      var body = document.createElement("tbody");
      shown.slice(page * PAGE, (page + 1) * PAGE).forEach(function (r) {
        var tr = document.createElement("tr");
        var title = cell(tr);
        title.appendChild(anchor(r.title, link(paperLink, r.slug)));
        if (r.untitled) {
          var em = document.createElement("em");
          em.className = "atlas-untitled"; em.textContent = "(untitled)";
          title.appendChild(document.createTextNode(" ")); title.appendChild(em);
        }
        cell(tr, r.authors); cell(tr, r.venue); cell(tr, r.year ? String(r.year) : "");
        var techniques = cell(tr);
        r.techniques.forEach(function (t, i) {
          if (i) techniques.appendChild(document.createTextNode(", "));
          techniques.appendChild(anchor(data.techniques[t][1], link(techniqueLink, data.techniques[t][0])));
        });
        body.appendChild(tr);
      });
      table.replaceChild(body, table.tBodies[0]);
      count.textContent = shown.length + " of " + rows.length + " papers";
      drawPager(pages);
    }

    function drawPager(pages) {
      if (!pagerBox) return;
      pagerBox.textContent = "";
      if (pages < 2) return;
      function button(label, target, disabled) {
        var b = document.createElement("button");
        b.type = "button"; b.className = "md-button"; b.textContent = label; b.disabled = disabled;
        b.addEventListener("click", function () {
          page = target; draw();
          table.scrollIntoView({ block: "start" });
        });
        return b;
      }
      var where = document.createElement("span");
      where.textContent = "Page " + (page + 1) + " of " + pages;
      [button("Previous", page - 1, page === 0), where, button("Next", page + 1, page >= pages - 1)]
        .forEach(function (el) { pagerBox.appendChild(el); });
    }

    function apply() {
      var q = input.value.trim().toLocaleLowerCase();
      var from = yearFrom.box.value ? parseInt(yearFrom.box.value, 10) : null;
      var to = yearTo.box.value ? parseInt(yearTo.box.value, 10) : null;
      var v = venue.box.value ? data.venues[parseInt(venue.box.value, 10)] : null;
      var t = technique.box.value ? parseInt(technique.box.value, 10) : null;
      shown = rows.filter(function (r) {
        return (!q || r.text.indexOf(q) !== -1)
          && (from === null || r.year >= from) && (to === null || (r.year && r.year <= to))
          && (v === null || r.venue === v)
          && (t === null || r.techniques.indexOf(t) !== -1);
      });
      if (sortKey !== null) {
        var key = keys[sortKey];
        shown.sort(function (a, b) {
          var x = key === "year" ? a.year : String(a[key]).toLocaleLowerCase();
          var y = key === "year" ? b.year : String(b[key]).toLocaleLowerCase();
          return ((x < y ? -1 : x > y ? 1 : 0) || a.order - b.order) * (ascending ? 1 : -1);
        });
      }
      page = 0;
      draw();
    }

    Array.prototype.forEach.call(headers, function (th, index) {
      if (!th.getAttribute("data-sort")) return;
      th.tabIndex = 0;
      th.setAttribute("role", "button");
      function sort() {
        ascending = !(sortKey === index && ascending);
        sortKey = index;
        Array.prototype.forEach.call(headers, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        apply();
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); }
      });
    });
    [input, yearFrom.box, yearTo.box, venue.box, technique.box].forEach(function (el) {
      el.addEventListener("input", apply);
      el.addEventListener("change", apply);
    });
    apply();
  }

  /* The home page's search box (templates/dashboard.html) hands its words to
     the header's search (assets/atlas-search.js), so both give the same results. */
  function homeSearch(form) {
    if (form.dataset.ready) return;
    form.dataset.ready = "1";
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var toggle = document.getElementById("__search");
      var input = document.querySelector(".atlas-search .md-search__input");
      if (!toggle || !input) return;
      input.value = form.elements.q.value;
      toggle.checked = true;
      toggle.dispatchEvent(new Event("change"));
      input.dispatchEvent(new Event("input"));
      input.focus();
    });
  }

  function init() {
    document.querySelectorAll("form.atlas-home-search").forEach(homeSearch);
    document.querySelectorAll("table.atlas-table:not([data-src])").forEach(makeSortable);
    document.querySelectorAll("table.atlas-table[data-src]").forEach(makeDataTable);
  }

  if (typeof document$ !== "undefined") { document$.subscribe(init); }
  else { document.addEventListener("DOMContentLoaded", init); }
})();
