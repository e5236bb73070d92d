/* MLSys Atlas: the header's search, on a Pagefind index.

   The plugin runs Pagefind over the built site (build_graph/search.py): the
   index is split into small files, and a search downloads only the pieces
   its words need, so the first result costs a visitor tens of kilobytes at
   any atlas size, where mkdocs-material's lunr search fetched its whole index
   (12.8 MB at 10,000 papers). pagefind.js is imported the first time the
   search opens or is typed into.

   The dialog is mkdocs-material's own markup, built here into the shell that
   theme/partials/search.html leaves in the page (SHELL below), so it opens from the header and with the f, s and / keys, and closes with
   Escape, as Material users expect. Results are built with DOM APIs and
   textContent: a title or excerpt from a listing is never parsed as HTML
   into the page. */
(function () {
  "use strict";

  var self = document.currentScript && document.currentScript.src;
  var BUNDLE = new URL("../pagefind/", self || location.href);
  var FILTERS = [["type", "Type"], ["venue", "Venue"], ["year", "Year"], ["technique", "Technique"]];
  var SHOWN = 20;                 // results shown (each fetches its fragment); the count says how many matched
  var pagefind = null;

  function load() {
    if (!pagefind) {
      pagefind = import(new URL("pagefind.js", BUNDLE).href).then(function (api) {
        return api.options({ baseUrl: new URL("..", BUNDLE).pathname }).then(function () { return api; });
      });
    }
    return pagefind;
  }

  /* An excerpt's text with Pagefind's <mark> around the matched words: the
     pieces between the marks are decoded as text in an inert document, so no
     markup they may hold reaches the page. */
  function excerpt(holder, html) {
    html.split(/(<mark>|<\/mark>)/).reduce(function (marked, piece) {
      if (piece === "<mark>") return true;
      if (piece === "</mark>") return false;
      var text = piece.indexOf("&") === -1 && piece.indexOf("<") === -1 ? piece
        : new DOMParser().parseFromString(piece, "text/html").documentElement.textContent;
      text = text.replace(/¶/g, "");
      if (text) {
        var node = marked ? document.createElement("mark") : document.createTextNode(text);
        if (marked) node.textContent = text;
        holder.appendChild(node);
      }
      return marked;
    }, false);
  }

  /* mkdocs-material's search dialog markup (its partials/search.html, with
     Material Design icons, Apache-2.0): a constant, so innerHTML here never
     sees text from a page; the labels are set as attributes and text. */
  var ICON = function (path) {
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="' + path + '"/></svg>';
  };
  var SHELL =
    '<label class="md-search__overlay" for="__search"></label>' +
    '<div class="md-search__inner" role="search">' +
    '<form class="md-search__form" name="atlas-search">' +
    '<input type="text" class="md-search__input" name="query" autocapitalize="off" autocorrect="off"' +
    ' autocomplete="off" spellcheck="false" required>' +
    '<label class="md-search__icon md-icon" for="__search">' +
    ICON("M9.5 3A6.5 6.5 0 0 1 16 9.5c0 1.61-.59 3.09-1.56 4.23l.27.27h.79l5 5-1.5 1.5-5-5v-.79l-.27-.27A6.52 " +
         "6.52 0 0 1 9.5 16 6.5 6.5 0 0 1 3 9.5 6.5 6.5 0 0 1 9.5 3m0 2C7 5 5 7 5 9.5S7 14 9.5 14 14 12 14 " +
         "9.5 12 5 9.5 5") +
    ICON("M20 11v2H8l5.5 5.5-1.42 1.42L4.16 12l7.92-7.92L13.5 5.5 8 11z") + '</label>' +
    '<nav class="md-search__options"><button type="reset" class="md-search__icon md-icon" tabindex="-1">' +
    ICON("M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z") +
    '</button></nav></form>' +
    '<div class="md-search__output"><div class="md-search__scrollwrap" data-md-scrollfix>' +
    '<details class="atlas-search-filters"><summary>Filters</summary>' +
    '<div class="atlas-search-filter-boxes"></div></details>' +
    '<div class="md-search-result"><div class="md-search-result__meta" aria-live="polite"></div>' +
    '<ol class="md-search-result__list"></ol></div></div></div></div>';

  function build(dialog) {
    if (dialog.querySelector("form")) return;
    var labels = {};
    try { labels = JSON.parse(dialog.getAttribute("data-atlas-labels") || "{}"); } catch (e) { /* defaults */ }
    var name = dialog.getAttribute("aria-label") || "Search";
    dialog.innerHTML = SHELL;
    var input = dialog.querySelector(".md-search__input");
    input.setAttribute("aria-label", labels.placeholder || name);
    input.setAttribute("placeholder", labels.placeholder || name);
    dialog.querySelector(".md-search__options").setAttribute("aria-label", name);
    var reset = dialog.querySelector("button[type=reset]");
    reset.setAttribute("title", labels.reset || "Clear");
    reset.setAttribute("aria-label", labels.reset || "Clear");
    dialog.querySelector(".md-search-result__meta").textContent = labels.idle || "Type to start searching";
  }

  function setup(dialog) {
    if (dialog.dataset.ready) return;
    dialog.dataset.ready = "1";
    build(dialog);
    var toggle = document.getElementById("__search");
    var input = dialog.querySelector(".md-search__input");
    var form = dialog.querySelector("form");
    var meta = dialog.querySelector(".md-search-result__meta");
    var list = dialog.querySelector(".md-search-result__list");
    var filterBox = dialog.querySelector(".atlas-search-filters");
    var boxes = {};
    var run = 0;

    function open() {
      toggle.checked = true;
      toggle.dispatchEvent(new Event("change"));
      input.focus();
      input.select();
      load();
    }
    function close() {
      toggle.checked = false;
      toggle.dispatchEvent(new Event("change"));
      input.blur();
    }

    function chosen() {
      var out = {};
      Object.keys(boxes).forEach(function (key) { if (boxes[key].value) out[key] = boxes[key].value; });
      return out;
    }

    function show(results, mine) {
      var count = results.length;
      meta.textContent = count === 0 ? "No matching pages" : count === 1 ? "1 matching page" : count + " matching pages";
      list.textContent = "";
      return Promise.all(results.slice(0, SHOWN).map(function (r) { return r.data(); })).then(function (items) {
        if (mine !== run) return;
        items.forEach(function (data) {
          var li = document.createElement("li");
          li.className = "md-search-result__item";
          var a = document.createElement("a");
          a.className = "md-search-result__link";
          a.href = data.url;
          var article = document.createElement("article");
          article.className = "md-search-result__article md-typeset";
          var title = document.createElement("h1");
          title.textContent = (data.meta && data.meta.title) || data.url;
          var kind = data.filters && data.filters.type && data.filters.type[0];
          if (kind) {
            var tag = document.createElement("span");
            tag.className = "atlas-search-type";
            tag.textContent = kind;
            title.appendChild(document.createTextNode(" "));
            title.appendChild(tag);
          }
          var text = document.createElement("p");
          excerpt(text, data.excerpt || "");
          article.appendChild(title);
          article.appendChild(text);
          a.appendChild(article);
          li.appendChild(a);
          list.appendChild(li);
        });
      });
    }

    function search() {
      var mine = ++run;
      var query = input.value.trim();
      var filters = chosen();
      if (!query && !Object.keys(filters).length) {
        list.textContent = "";
        meta.textContent = "Type to start searching";
        return;
      }
      load().then(function (api) {
        return api.debouncedSearch(query || null, { filters: filters }, 150);
      }).then(function (found) {
        if (found && mine === run) return show(found.results, mine);
      }).catch(function () { meta.textContent = "Search is not available here (the site needs to be served over HTTP)."; });
    }

    function fillFilters() {
      if (filterBox.dataset.ready) return;
      filterBox.dataset.ready = "1";
      load().then(function (api) { return api.filters(); }).then(function (all) {
        var holder = filterBox.querySelector(".atlas-search-filter-boxes");
        FILTERS.forEach(function (f) {
          var values = Object.keys(all[f[0]] || {});
          if (!values.length) return;
          values.sort(f[0] === "year" ? function (a, b) { return b.localeCompare(a); }
            : function (a, b) { return a.localeCompare(b); });
          var label = document.createElement("label");
          label.textContent = f[1];
          var box = document.createElement("select");
          box.name = f[0];
          var any = document.createElement("option");
          any.value = ""; any.textContent = "All";
          box.appendChild(any);
          values.forEach(function (v) {
            var option = document.createElement("option");
            option.value = v; option.textContent = v + " (" + all[f[0]][v] + ")";
            box.appendChild(option);
          });
          box.addEventListener("change", search);
          label.appendChild(box);
          holder.appendChild(label);
          boxes[f[0]] = box;
        });
      });
    }

    input.addEventListener("input", search);
    input.addEventListener("focus", function () {       // the header's box opens the dialog, as Material's does
      if (!toggle.checked) { toggle.checked = true; toggle.dispatchEvent(new Event("change")); }
      load();
    });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var first = list.querySelector("a");
      if (first) first.click();
    });
    form.addEventListener("reset", function () { setTimeout(search, 0); });
    filterBox.addEventListener("toggle", fillFilters);
    list.addEventListener("click", function (e) { if (e.target.closest("a")) close(); });
    toggle.addEventListener("change", function () { if (toggle.checked) { input.focus(); load(); } });
    document.addEventListener("keydown", function (e) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      var active = document.activeElement;
      var typing = active && (active.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName));
      if (toggle.checked) {
        if (e.key === "Escape") { e.preventDefault(); close(); }
        else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
          var links = [input].concat(Array.prototype.slice.call(list.querySelectorAll("a")));
          var at = links.indexOf(active);
          links[(Math.max(at, 0) + links.length + (e.key === "ArrowUp" ? -1 : 1)) % links.length].focus();
          e.preventDefault();
        }
      } else if (!typing && (e.key === "f" || e.key === "s" || e.key === "/")) {
        e.preventDefault();
        open();
      }
    });
  }

  function init() {
    document.querySelectorAll(".atlas-search").forEach(setup);
  }

  if (typeof document$ !== "undefined") { document$.subscribe(init); }
  else { document.addEventListener("DOMContentLoaded", init); }
})();
