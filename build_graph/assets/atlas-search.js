/* MLSys Atlas: the header's search, on a Pagefind index.

   The plugin runs Pagefind over the built site (build_graph/search.py): the
   index is split into small files, and a search downloads only the pieces
   its words need, so the first result costs a visitor tens of kilobytes at
   any atlas size, where mkdocs-material's lunr search fetched its whole index
   (12.8 MB at 10,000 papers). pagefind.js is imported the first time the
   search opens or is typed into.

   The dialog is mkdocs-material's own markup (theme/partials/search.html),
   so it opens from the header and with the f, s and / keys, and closes with
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

  function setup(dialog) {
    if (dialog.dataset.ready) return;
    dialog.dataset.ready = "1";
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
