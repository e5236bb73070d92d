/* MLSys Atlas graph views: the explorer (graph/) and the local graph on
   every entity page.

   One shared, cached file on every page; it costs nothing where there is no
   graph, because vis-network (served by this site from assets/vendor/) is
   loaded only when a graph is about to come into view. Positions come from Python
   (build_graph/layout.py), so the browser does no layout work and physics
   stays off.

   The explorer's edges are not vis-network edges: creating 15,000 vis Edge
   objects takes seconds at 5,000 papers, so they are stroked as one canvas
   path in vis's beforeDrawing event (milliseconds), the selected node's
   edges a second time in the highlight colour. Local graphs (40 nodes) use
   ordinary vis edges.

   Safety: labels are drawn on a canvas (text, never markup) and tooltips are
   DOM nodes filled with textContent; nothing from the data is ever parsed as
   HTML, and no node is handed to vis-network with a "title" (vis would
   build its own popup from it).

   Runs on every page view, including instant-navigation ones, through
   Material's document$; follows the light/dark palette by observing
   data-md-color-scheme on <body>.

   For tests and the benchmark, window.atlasGraphs lists the live graphs:
   { kind, container, network, nodes, edges, view, drawn(), edgesDrawn,
   firstDrawMs, timings, scheme, focused }, and window.atlasGraphs.explorer
   is the explorer, which also has expand(mapId, chunk) (a promise),
   expanded ({map id: chunks loaded}), labelBoxes and timings.expandMs. */
(function () {
  "use strict";

  var TYPES = ["paper", "technique", "venue", "author"];
  var TYPE_NAMES = { paper: "paper", technique: "technique", venue: "venue", author: "author" };
  var SHAPES = { paper: "dot", technique: "diamond", venue: "square", author: "triangle" };
  var LABEL_LENGTH = { paper: 28, author: 30, technique: 48, venue: 48 };
  var self = document.currentScript && document.currentScript.src;
  var VIS_URL = self ? new URL("vendor/vis-network.min.js", self).href : "assets/vendor/vis-network.min.js";
  var registry = window.atlasGraphs = window.atlasGraphs || [];
  registry.explorer = registry.explorer || null;
  var visPromise = null;

  function loadVis() {
    if (window.vis && window.vis.Network) return Promise.resolve(window.vis);
    if (!visPromise) {
      visPromise = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = VIS_URL;
        script.async = true;
        script.onload = function () { resolve(window.vis); };
        script.onerror = function () {
          visPromise = null;
          reject(new Error("vis-network could not be loaded"));
        };
        document.head.appendChild(script);
      });
    }
    return visPromise;
  }

  function fetchJSON(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(url + ": HTTP " + response.status);
      return response.json();
    });
  }

  /* Only URLs we built: relative paths. Anything with a scheme is refused. */
  function safeURL(url) {
    return typeof url === "string" && !/^[a-z][a-z0-9+.-]*:/i.test(url) && url.indexOf("//") !== 0
      ? url : null;
  }

  function short(text, max) {
    text = String(text == null ? "" : text);
    return text.length > max ? text.slice(0, max - 1) + "…" : text;
  }

  /* What the canvas shows for a paper: the system's name when the title
     has one ("FLINT: A Platform for ..." -> "FLINT"), else the first words.
     The full title is in the tooltip, the text version and the page. */
  function paperLabel(title, max) {
    var colon = title.indexOf(": ");
    if (colon > 1 && colon <= max) return title.slice(0, colon);
    return short(title, max);
  }

  function reduceMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  /* ---- palette ---------------------------------------------------------- */

  function palette(el) {
    var style = getComputedStyle(el);
    function v(name, fallback) { return (style.getPropertyValue(name) || "").trim() || fallback; }
    return {
      scheme: document.body.getAttribute("data-md-color-scheme") || "default",
      paper: v("--atlas-paper", "#3f51b5"), technique: v("--atlas-technique", "#d35400"),
      venue: v("--atlas-venue", "#1b7a3a"), author: v("--atlas-author", "#8e24aa"),
      edge: v("--atlas-edge", "rgba(60,64,80,.22)"), label: v("--atlas-label", "#1d1f24"),
      bg: v("--md-default-bg-color", "#ffffff")
    };
  }

  function styleOptions(p) {
    var groups = {};
    TYPES.forEach(function (type) {
      groups[type] = {
        shape: SHAPES[type],
        color: { background: p[type], border: p[type],
                 highlight: { background: p[type], border: p.label },
                 hover: { background: p[type], border: p.label } }
      };
    });
    /* The explorer's "+N more" nodes: hollow, in the text colour. */
    groups.more = { shape: "dot", color: { background: p.bg, border: p.label,
                                           highlight: { background: p.bg, border: p.label },
                                           hover: { background: p.bg, border: p.label } } };
    return {
      groups: groups,
      nodes: { font: { color: p.label, strokeColor: p.bg } },
      edges: { color: { color: p.edge, highlight: p.label, hover: p.label, inherit: false } }
    };
  }

  function merge(target, source) {
    Object.keys(source).forEach(function (key) {
      var value = source[key];
      if (value && typeof value === "object" && !Array.isArray(value)) {
        if (!target[key] || typeof target[key] !== "object") target[key] = {};
        merge(target[key], value);
      } else {
        target[key] = value;
      }
    });
    return target;
  }

  /* ---- tooltip and navigation ------------------------------------------ */

  function makeTip(host) {
    var tip = document.createElement("div");
    tip.className = "atlas-graph-tip";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    host.appendChild(tip);
    return tip;
  }

  function showTip(tip, info, x, y, more) {
    tip.textContent = "";
    var name = document.createElement("strong");
    name.textContent = info.label;
    tip.appendChild(name);
    String(info.title || "").split("\n").concat(more || []).forEach(function (line) {
      if (!line) return;
      var row = document.createElement("div");
      row.textContent = line;
      tip.appendChild(row);
    });
    var host = tip.parentNode;
    tip.hidden = false;
    var maxX = host.clientWidth - tip.offsetWidth - 4;
    var maxY = host.clientHeight - tip.offsetHeight - 4;
    tip.style.left = Math.max(4, Math.min(x + 14, maxX)) + "px";
    tip.style.top = Math.max(4, Math.min(y + 14, maxY)) + "px";
  }

  /* Through a real link, so Material's instant navigation handles it. */
  function go(url) {
    url = safeURL(url);
    if (!url) return;
    var link = document.createElement("a");
    link.href = url;
    link.hidden = true;
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  function canvasLabel(n) {
    var max = LABEL_LENGTH[n.group] || 40;
    return n.group === "paper" ? paperLabel(String(n.label), max) : short(n.label, max);
  }

  function visNode(n, extra, noLabel) {
    var node = { id: n.id, group: n.group, x: n.x, y: n.y };
    if (!noLabel) node.label = canvasLabel(n);
    if (n.value != null) node.value = n.value;
    return extra ? merge(node, extra) : node;
  }

  /* ---- one network ------------------------------------------------------ */

  function createGraph(kind, container, host, vis, nodes, edges, info, options) {
    var p = palette(container);
    var view = options.view || null;
    delete options.view;
    merge(options, styleOptions(p));
    var started = performance.now();
    var network = new vis.Network(host, { nodes: view || nodes, edges: edges }, options);
    var created = performance.now();
    var tip = makeTip(host);
    var entry = {
      kind: kind, container: container, network: network, nodes: nodes, edges: edges,
      view: view, info: info, scheme: p.scheme, palette: p, firstDrawMs: null, focused: null,
      timings: { networkStart: started, networkCreated: created },
      drawn: function () { return network.body.nodeIndices.length; },
      more: function () { return []; },
      restyle: function () {
        var q = palette(container);
        if (q.scheme === entry.scheme && q.paper === entry.palette.paper) return;
        network.setOptions(styleOptions(q));
        entry.scheme = q.scheme;
        entry.palette = q;
        container.setAttribute("data-atlas-scheme", q.scheme);
        network.redraw();
      },
      tip: tip
    };
    var lastCount = -1;
    network.on("afterDrawing", function () {
      if (entry.firstDrawMs === null) entry.firstDrawMs = performance.now();
      var count = entry.drawn();
      if (count !== lastCount) {
        lastCount = count;
        container.setAttribute("data-atlas-drawn", String(count));
      }
    });
    network.on("hoverNode", function (event) {
      var item = info[event.node];
      if (item) showTip(tip, item, event.pointer.DOM.x, event.pointer.DOM.y, entry.more(item));
      host.style.cursor = "pointer";
    });
    network.on("blurNode", function () { tip.hidden = true; host.style.cursor = ""; });
    network.on("dragStart", function () { tip.hidden = true; });
    network.on("zoom", function () { tip.hidden = true; });
    /* The explorer's clicks bring papers in (drawExplorer); a local graph's open the page. */
    if (kind !== "explorer") {
      network.on("click", function (event) {
        if (event.nodes.length === 1 && info[event.nodes[0]]) go(info[event.nodes[0]].url);
      });
    }
    container.setAttribute("data-atlas-scheme", p.scheme);
    registry.push(entry);
    return entry;
  }

  /* ---- local graphs ----------------------------------------------------- */

  /* The data-graph attribute of a local graph (build_graph/render/graphview.py
     writes it; its module docstring is the reference), version 1:

       {"v":1, "c":0, "more":3,
        "n":[[label, type, title, url, x, y], ...],
        "e":[[from, to, type], ...]}

     A node's id is its index in "n"; "c" is the index of the page's own
     node (drawn larger); "from"/"to" are indexes into "n". Node types are
     one letter (NODE_CODES); edge types (a authored, i published in, u uses,
     s subtopic of) are not needed for drawing. Labels and titles are
     untrusted text: drawn on the canvas or set with textContent, never HTML.
     getAttribute has already decoded the attribute's entities (&#39; &amp;
     &lt; &gt; &#61;), so JSON.parse sees the JSON as written. */
  var GRAPH_FORMAT = 1;
  var NODE_CODES = { p: "paper", t: "technique", v: "venue", a: "author" };

  function localData(container) {
    var data;
    try { data = JSON.parse(container.getAttribute("data-graph")); } catch (e) { return null; }
    if (!data || data.v !== GRAPH_FORMAT || !Array.isArray(data.n) || !Array.isArray(data.e)) return null;
    return data;
  }

  function drawLocal(container, vis) {
    var data = localData(container);
    if (!data) { container.setAttribute("data-atlas-error", "data-graph"); return; }
    var info = {};
    var nodes = new vis.DataSet(data.n.map(function (row, i) {
      var n = { id: i, label: String(row[0]), group: NODE_CODES[row[1]], title: row[2], url: row[3],
                x: row[4], y: row[5], centre: i === data.c };
      info[i] = n;
      return visNode(n, n.centre ? { size: 20, font: { size: 16 }, borderWidth: 3 } : { size: 12 });
    }));
    var edges = new vis.DataSet(data.e.map(function (e, i) {
      return { id: i, from: e[0], to: e[1] };
    }));
    var options = {
      autoResize: true,
      physics: { enabled: false },
      layout: { improvedLayout: false },
      interaction: { hover: true, dragNodes: false, zoomView: false, dragView: true,
                     keyboard: false, tooltipDelay: 100 },
      nodes: { font: { size: 12, strokeWidth: 3 }, borderWidth: 1 },
      edges: { smooth: false, width: 1 }
    };
    var entry = createGraph("local", container, container, vis, nodes, edges, info, options);
    /* No keyboard interaction here, so no tab stop: the list below has the links. */
    var frame = container.querySelector(".vis-network");
    if (frame) frame.tabIndex = -1;
    entry.network.once("afterDrawing", function () {
      entry.network.fit({ animation: false });
      /* A page with two neighbours must not be drawn at 4x. */
      if (entry.network.getScale() > 1) entry.network.moveTo({ scale: 1, animation: false });
    });
  }

  /* ---- the explorer ----------------------------------------------------- */

  /* The explorer opens on a map (build_graph/render/explorer.py writes it; its
     module docstring is the reference for the three file formats, version 3):
     areas, techniques and venues, ids 0..n-1, sized by papers, joined by
     their strongest shared-paper links. Papers come in on demand: a click
     on a map node fetches its first chunk of papers (assets/graph/t/<key>/1.json)
     and draws them around it at positions computed in Python, with a
     "+N more" node that fetches the next chunk; a click on a paper brings in
     its authors. Ids: map nodes are numbers, papers "p:" + url, authors
     "a:" + slug, "+N more" nodes "m:" + map id. The search index
     (every paper's title -> its cluster and chunk) is fetched on the first
     search only. */
  var FORMAT = 3;
  var AUTHOR_CAP = 30;

  function drawExplorer(root, vis, data) {
    var form = root.querySelector("form.atlas-graph-controls");
    var status = root.querySelector(".atlas-graph-status");
    var host = root.querySelector(".atlas-graph-canvas");
    var names = root.querySelector("datalist");
    var base = new URL(".", new URL(root.getAttribute("data-src"), location.href)).href;
    var info = {};
    var neighbours = {};
    var edgeList = [];
    var loaded = {};          /* map id -> chunks loaded */
    var pending = {};         /* map id -> promise of the chunk being fetched */
    var searchIndex = null;
    if (data.v !== FORMAT) throw new Error("explorer.json: format " + data.v + ", expected " + FORMAT);

    function link(a, b, w) {
      edgeList.push([a, b, w || 0]);
      (neighbours[a] = neighbours[a] || []).push(b);
      (neighbours[b] = neighbours[b] || []).push(a);
    }
    data.nodes.forEach(function (n) { info[n.id] = n; });
    data.edges.forEach(function (e) { link(e[0], e[1], e[2]); });
    var fragment = document.createDocumentFragment();
    data.nodes.forEach(function (n) {
      var option = document.createElement("option");
      option.value = n.label;
      fragment.appendChild(option);
    });
    names.appendChild(fragment);
    var maxWeight = data.edges.reduce(function (m, e) { return Math.max(m, e[2]); }, 1);

    var shown = {};
    compute();    /* before the DataView: it takes its first set of ids from the filter */
    var nodes = new vis.DataSet(data.nodes.map(function (n) { return visNode(n, null, true); }));
    var edges = new vis.DataSet([]);
    var view = new vis.DataView(nodes, { filter: function (n) { return shown[n.id] === true; } });

    function state() {
      return {
        area: form.elements.area.value,
        from: parseInt(form.elements.from.value, 10) || null,
        to: parseInt(form.elements.to.value, 10) || null
      };
    }

    function inYears(s, year) {
      return (!s.from || (year && year >= s.from)) && (!s.to || (year && year <= s.to));
    }

    function compute() {
      /* Map nodes pass if they have papers in the years and the area; papers
         by their year and their techniques' areas; authors and "+N more"
         follow what they hang on. */
      var s = state();
      var count = 0, total = 0;
      Object.keys(info).forEach(function (id) {
        var n = info[id], ok;
        if (n.group === "paper") {
          ok = inYears(s, n.year) && (!s.area || n.links.some(function (m) {
            return (info[m].areas || []).indexOf(s.area) !== -1;
          }));
        } else if (n.group === "author" || n.group === "more") {
          return;
        } else {
          ok = (!s.area || (n.areas || []).indexOf(s.area) !== -1) &&
            (!(s.from || s.to) || (n.years || []).some(function (y) { return inYears(s, y[0]) && y[1] > 0; }));
        }
        shown[id] = ok;
        total += 1;
        if (ok) count += 1;
      });
      Object.keys(info).forEach(function (id) {
        var n = info[id];
        if (n.group === "author") shown[id] = (neighbours[id] || []).some(function (p) { return shown[p]; });
        else if (n.group === "more") shown[id] = shown[n.of] === true;
      });
      return { count: count, total: total };
    }

    function apply() {
      var result = compute();
      view.refresh();
      status.textContent = "Showing " + view.length + " nodes: " + result.count + " of the " + result.total +
        " map nodes and papers loaded pass the filters.";
    }

    var options = JSON.parse(root.getAttribute("data-options") || "{}");
    options.view = view;
    options.nodes = options.nodes || {};
    options.nodes.scaling = options.nodes.scaling || {};
    /* Size by the square root of the paper count (area ~ papers). */
    options.nodes.scaling.customScalingFunction = function (min, max, total, value) {
      if (max === min) return 0.5;
      return (Math.sqrt(value) - Math.sqrt(min)) / (Math.sqrt(max) - Math.sqrt(min));
    };
    var entry = createGraph("explorer", root, host, vis, nodes, edges, info, options);
    registry.explorer = entry;
    var network = entry.network;
    entry.expanded = loaded;
    entry.more = function (n) {
      if (n.group !== "paper") return [];
      var lines = [];
      if (n.authors.length) {
        lines.push(n.authors.slice(0, 3).map(function (a) { return a[1]; }).join(", ") +
          (n.authors.length > 3 ? " et al." : ""));
      }
      var on = n.links.filter(function (m) { return info[m] && info[m].group === "technique"; })
        .map(function (m) { return info[m].label; });
      if (on.length) lines.push("Techniques: " + on.join(", "));
      return lines;
    };
    entry.edgesDrawn = 0;
    entry.edgeTotal = function () { return edgeList.length; };
    var dragging = false;
    network.on("dragStart", function () { dragging = true; });
    network.on("dragEnd", function () { dragging = false; network.redraw(); });
    network.on("beforeDrawing", function (ctx) {
      if (dragging) return;          /* like vis's hideEdgesOnDrag: panning stays smooth */
      var scale = network.getScale();
      var body = network.body.nodes;
      var count = 0;
      ctx.save();
      ctx.strokeStyle = entry.palette.edge;
      /* Map links: width by shared papers (square root, 0.6-4 px on screen);
         paper and author links: hairlines. One path per width class. */
      var classes = {};
      var dim = Object.keys(loaded).length > 0;
      for (var i = 0; i < edgeList.length; i += 1) {
        var a = body[edgeList[i][0]], b = body[edgeList[i][1]];
        if (!a || !b) continue;      /* an end is not drawn (filtered out or not loaded) */
        var w = edgeList[i][2] ? 0.6 + 3.4 * Math.sqrt(edgeList[i][2] / maxWeight) : 0.5;
        /* Map links under brought-in papers: a class of their own, faint. */
        var key = edgeList[i][2] && dim ? "map" : String(Math.round(w * 2) / 2);
        if (key === "map") w = 0.5;
        (classes[key] = classes[key] || []).push(a, b);
        count += 1;
      }
      Object.keys(classes).forEach(function (key) {
        var list = classes[key];
        ctx.globalAlpha = key === "map" ? 0.25 : key === "0.5" ? 0.6 : 0.8;
        ctx.lineWidth = (key === "map" ? 0.5 : parseFloat(key)) / scale;
        ctx.beginPath();
        for (var k = 0; k < list.length; k += 2) {
          ctx.moveTo(list[k].x, list[k].y);
          ctx.lineTo(list[k + 1].x, list[k + 1].y);
        }
        ctx.stroke();
      });
      ctx.globalAlpha = 1;
      var selected = network.getSelectedNodes();
      if (selected.length) {
        var from = body[selected[0]];
        ctx.lineWidth = 1.6 / scale;
        ctx.strokeStyle = entry.palette.label;
        ctx.beginPath();
        (neighbours[selected[0]] || []).forEach(function (other) {
          var to = body[other];
          if (from && to) { ctx.moveTo(from.x, from.y); ctx.lineTo(to.x, to.y); }
        });
        ctx.stroke();
      }
      ctx.restore();
      entry.edgesDrawn = count;
    });

    /* Labels, drawn here rather than by vis-network, which scales every
       label with the zoom and draws them all. Here labels have a fixed size
       on screen, like a map's, and are placed greedily in a fixed order (the
       selected node, areas, then map nodes by paper count, then papers,
       authors): a label that would overlap one already placed is left out
       until the reader zooms in, so no two labels ever overlap. Papers and
       authors are labelled from 0.5x zoom. */
    var RANK = { technique: 1, venue: 1, more: 2, paper: 3, author: 4 };
    var order = [];
    function labelOrder() {
      order = Object.keys(info).map(function (id) { return info[id]; }).sort(function (a, b) {
        return (b.area ? 1 : 0) - (a.area ? 1 : 0) || RANK[a.group] - RANK[b.group] ||
          (b.value || 0) - (a.value || 0) || (String(a.id) < String(b.id) ? -1 : 1);
      });
    }
    labelOrder();
    var LABEL_FONT = { area: "600 15px ", technique: "12px ", venue: "600 12px ", paper: "11px ",
                       author: "10px ", more: "italic 11px " };
    var FACE = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
    network.on("afterDrawing", function (ctx) {
      var body = network.body.nodes;
      var scale = network.getScale();
      var width = host.clientWidth, height = host.clientHeight;
      var ratio = (network.canvas && network.canvas.pixelRatio) || window.devicePixelRatio || 1;
      var placed = {}, cell = 64, drawnLabels = 0;
      function free(x0, y0, x1, y1) {
        for (var gx = Math.floor(x0 / cell); gx <= Math.floor(x1 / cell); gx += 1) {
          for (var gy = Math.floor(y0 / cell); gy <= Math.floor(y1 / cell); gy += 1) {
            var boxes = placed[gx + ":" + gy];
            if (!boxes) continue;
            for (var k = 0; k < boxes.length; k += 1) {
              var b = boxes[k];
              if (x0 < b[2] && x1 > b[0] && y0 < b[3] && y1 > b[1]) return false;
            }
          }
        }
        return true;
      }
      function take(box) {
        for (var gx = Math.floor(box[0] / cell); gx <= Math.floor(box[2] / cell); gx += 1) {
          for (var gy = Math.floor(box[1] / cell); gy <= Math.floor(box[3] / cell); gy += 1) {
            (placed[gx + ":" + gy] = placed[gx + ":" + gy] || []).push(box);
          }
        }
      }
      ctx.save();
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      ctx.lineJoin = "round";
      ctx.lineWidth = 3;
      ctx.strokeStyle = entry.palette.bg;
      ctx.fillStyle = entry.palette.label;
      var selected = network.getSelectedNodes();
      var queue = order;
      if (Object.keys(loaded).length) {
        /* The papers brought in are what the reader asked for: their labels
           go before those of the faded map nodes. */
        queue = order.filter(function (n) { return !dimmed(n); })
          .concat(order.filter(function (n) { return dimmed(n); }));
      }
      if (selected.length && info[selected[0]]) queue = [info[selected[0]]].concat(queue);
      var done = {}, boxes = [];
      for (var i = 0; i < queue.length; i += 1) {
        var n = queue[i];
        if (done[n.id]) continue;
        done[n.id] = true;
        var node = body[n.id];
        if (!node || !shown[n.id]) continue;
        var small = n.group === "paper" || n.group === "author";
        if (small && scale < 0.5 && n.id !== selected[0]) continue;
        var at = network.canvasToDOM({ x: node.x, y: node.y });
        if (at.x < -200 || at.y < -40 || at.x > width + 200 || at.y > height + 40) continue;
        var font = (n.area ? LABEL_FONT.area : LABEL_FONT[n.group]) + FACE;
        ctx.font = font;
        var text = n.canvasLabel || (n.canvasLabel = n.group === "more" ? n.label : canvasLabel(n));
        var w = n.labelWidth && n.labelFont === font ? n.labelWidth : (n.labelWidth = ctx.measureText(text).width);
        n.labelFont = font;
        var h = parseInt(font.replace(/^(\d00|italic) /, ""), 10) + 2;
        var top = at.y + (node.shape && node.shape.height ? node.shape.height / 2 : (node.options.size || 8)) * scale + 2;
        var box = [at.x - w / 2 - 2, top, at.x + w / 2 + 2, top + h];
        if (!free(box[0], box[1], box[2], box[3])) continue;
        take(box);
        boxes.push([n.id].concat(box));
        /* Map nodes that were not brought in step back while papers are in. */
        ctx.globalAlpha = dimmed(n) ? 0.45 : 1;
        ctx.strokeText(text, at.x, top);
        ctx.fillText(text, at.x, top);
        drawnLabels += 1;
      }
      ctx.restore();
      entry.labelsDrawn = drawnLabels;
      entry.labelBoxes = boxes;
    });
    network.once("afterDrawing", function () { network.fit({ animation: false }); });
    status.textContent = "Showing the map: " + view.length + " areas, techniques and venues. " +
      "Click one to bring in its papers; Find reaches every paper.";

    /* ---- papers on demand ---- */

    /* While papers are brought in, the map nodes that were not expanded
       are drawn faded, so the papers and their nodes stand out. */
    function dimmed(n) {
      return typeof n.id === "number" && !loaded[n.id] && Object.keys(loaded).length > 0;
    }
    function fade() {
      nodes.update(data.nodes.map(function (n) { return { id: n.id, opacity: dimmed(n) ? 0.35 : 1 }; }));
    }

    function chunkURL(mapId, part) {
      return new URL(info[mapId].src + "/" + part + ".json", base).href;
    }

    function addChunk(chunk) {
      var started = performance.now();
      var mapId = chunk.node;
      var cluster = info[mapId];
      var added = [];
      chunk.papers.forEach(function (row) {
        var id = "p:" + row[3];
        var links = row[7];
        if (!info[id]) {
          info[id] = { id: id, label: String(row[1]), group: "paper", year: row[2], url: row[3],
                       title: row[4], x: row[5], y: row[6], links: links,
                       authors: row[8].map(function (k) {
                         /* [slug, name, url]: a person's own page, or (without one) this paper's. */
                         var a = chunk.authors[k];
                         return [a[0], a[1], a[2] ? chunk.author_pages + a[0] + "/" : row[3]];
                       }) };
          /* Drawn: the spoke to this cluster. Its links to other map nodes
             are drawn only while it is selected: hundreds of long lines
             across the map otherwise. A paper already brought in by another
             cluster keeps its place and its spoke. */
          links.forEach(function (m) {
            if (m !== mapId && info[m]) (neighbours[id] = neighbours[id] || []).push(m);
          });
          link(id, mapId, 0);
          added.push(visNode(info[id], { size: 5 }, true));
        }
      });
      loaded[mapId] = chunk.part;
      fade();
      var moreId = "m:" + mapId;
      if (info[moreId]) { nodes.remove(moreId); delete info[moreId]; }
      var left = chunk.total - Math.min(chunk.total, chunk.part * data.chunk);
      if (left > 0) {
        var last = chunk.papers[chunk.papers.length - 1];
        var dx = last[5] - cluster.x, dy = last[6] - cluster.y;
        var grow = 1 + 28 / Math.max(1, Math.sqrt(dx * dx + dy * dy));
        info[moreId] = { id: moreId, group: "more", of: mapId, label: "+" + left + " more",
                         title: "Click to bring in the next " + Math.min(left, data.chunk) + " papers",
                         x: cluster.x + dx * grow, y: cluster.y + dy * grow, next: chunk.part + 1 };
        added.push({ id: moreId, group: "more", x: info[moreId].x, y: info[moreId].y, size: 6 });
      }
      compute();
      nodes.add(added);
      labelOrder();
      entry.timings.lastExpandMs = performance.now() - started;
      return added.length;
    }

    function expand(mapId, part) {
      part = part || 1;
      if (loaded[mapId] >= part) return Promise.resolve(0);
      if (pending[mapId]) return pending[mapId];
      var started = performance.now();
      status.textContent = "Loading the papers of “" + info[mapId].label + "”…";
      pending[mapId] = fetchJSON(chunkURL(mapId, part)).then(function (chunk) {
        if (chunk.v !== FORMAT) throw new Error("format " + chunk.v);
        var count = addChunk(chunk);
        entry.timings.expandMs = performance.now() - started;
        var shownCount = 0;
        Object.keys(info).forEach(function (id) { if (info[id].group === "paper" && shown[id]) shownCount += 1; });
        status.textContent = "“" + info[mapId].label + "”: " + Math.min(chunk.total, chunk.part * data.chunk) +
          " of its " + chunk.total + " papers drawn around it; " + shownCount + " papers drawn in all. " +
          "Click a paper, or this node again, for authors; double-click a node to open its page.";
        return count;
      }).finally(function () { delete pending[mapId]; });
      return pending[mapId];
    }
    entry.expand = expand;

    function bringAuthors(paperId) {
      var n = info[paperId];
      var added = [];
      var list = n.authors.slice(0, AUTHOR_CAP);
      list.forEach(function (a, i) {
        var id = "a:" + a[0];
        if (!info[id]) {
          var angle = -Math.PI / 2 + 2 * Math.PI * i / list.length;
          var r = 26 + 2 * list.length;
          info[id] = { id: id, label: String(a[1]), group: "author", url: a[2], title: "Author",
                       x: n.x + r * Math.cos(angle), y: n.y + r * Math.sin(angle) };
          added.push(visNode(info[id], { size: 4 }, true));
        }
        if ((neighbours[id] || []).indexOf(paperId) === -1) link(id, paperId, 0);
      });
      compute();
      nodes.add(added);
      labelOrder();
      return n.authors.length - list.length;
    }
    entry.bringAuthors = bringAuthors;

    /* A map node's authors: of the papers drawn around it, the AUTHOR_CAP
       people with the most of them (then by name), each linked to those papers.
       Never every author of the atlas at once. Returns [drawn, not drawn]. */
    function bringGroupAuthors(mapId) {
      var n = info[mapId];
      var papers = (neighbours[mapId] || []).filter(function (id) {
        return info[id] && info[id].group === "paper" && shown[id];
      });
      var people = {};
      papers.forEach(function (pid) {
        info[pid].authors.forEach(function (a) {
          var person = people[a[0]] || (people[a[0]] = { a: a, papers: [] });
          if (person.papers.indexOf(pid) === -1) person.papers.push(pid);
        });
      });
      var ranked = Object.keys(people).map(function (k) { return people[k]; }).sort(function (x, y) {
        return y.papers.length - x.papers.length || (String(x.a[1]) < String(y.a[1]) ? -1 : 1);
      });
      var list = ranked.slice(0, AUTHOR_CAP), added = [];
      list.forEach(function (person, i) {
        var id = "a:" + person.a[0];
        if (!info[id]) {
          var angle = -Math.PI / 2 + 2 * Math.PI * i / list.length;
          var r = 60 + 3 * list.length;
          info[id] = { id: id, label: String(person.a[1]), group: "author", url: person.a[2], title: "Author",
                       x: n.x + r * Math.cos(angle), y: n.y + r * Math.sin(angle) };
          added.push(visNode(info[id], { size: 4 }, true));
        }
        person.papers.forEach(function (pid) {
          if ((neighbours[id] || []).indexOf(pid) === -1) link(id, pid, 0);
        });
      });
      compute();
      nodes.add(added);
      labelOrder();
      return [list.length, ranked.length - list.length];
    }
    entry.bringGroupAuthors = bringGroupAuthors;

    function collapse() {
      var gone = Object.keys(info).filter(function (id) { return typeof info[id].id === "string"; });
      nodes.remove(gone);
      gone.forEach(function (id) { delete info[id]; delete neighbours[id]; delete shown[id]; });
      Object.keys(neighbours).forEach(function (id) {
        neighbours[id] = neighbours[id].filter(function (o) { return info[o]; });
      });
      edgeList = edgeList.filter(function (e) { return info[e[0]] && info[e[1]]; });
      Object.keys(loaded).forEach(function (id) { delete loaded[id]; });
      fade();
      labelOrder();
      network.unselectAll();
      apply();
    }

    /* A double click opens a node's page. Not vis-network's doubleClick:
       it fires for two quick clicks on different nodes too (a technique, then
       one of its papers that just appeared under the pointer), which opened
       the paper instead of bringing in its authors. Here the same node must be
       clicked twice within DOUBLE_CLICK_MS. */
    var DOUBLE_CLICK_MS = 400;
    var lastClick = { id: null, at: 0 };
    network.on("click", function (event) {
      if (event.nodes.length !== 1) { lastClick = { id: null, at: 0 }; return; }
      var id = event.nodes[0], n = info[id];
      if (!n) return;
      var now = Date.now();
      if (lastClick.id === id && now - lastClick.at < DOUBLE_CLICK_MS) {
        lastClick = { id: null, at: 0 };
        go(n.url);
        return;
      }
      lastClick = { id: id, at: now };
      if (n.group === "more") {
        expand(n.of, n.next);
      } else if (n.group === "paper") {
        var more = bringAuthors(id);
        status.textContent = "“" + n.label + "”: " + n.authors.length + " author" +
          (n.authors.length === 1 ? "" : "s") + (more ? " (" + more + " not drawn)" : "") +
          ". Double-click to open its page.";
      } else if (n.group !== "author" && !loaded[id]) {
        expand(id, 1).then(function () { fitCluster(id); }, failed);
      } else if (n.group !== "author") {
        var counts = bringGroupAuthors(id);
        status.textContent = "“" + n.label + "”: the " + counts[0] + " most frequent authors of its drawn papers" +
          (counts[1] ? " (" + counts[1] + " more not drawn)" : "") + ". Double-click to open its page.";
      }
    });

    /* Semantic zoom: zooming in (wheel or pinch) close onto a map node
       brings its papers in, as a click does. Only the node nearest the
       middle of the view, and only once the zoom has settled. */
    var ZOOM_IN = 1.2;
    var zoomTimer = null;
    network.on("zoom", function () {
      clearTimeout(zoomTimer);
      zoomTimer = setTimeout(function () {
        var scale = network.getScale();
        if (scale < ZOOM_IN) return;
        var centre = network.getViewPosition();
        var reach = 80 / scale, best = null, bestDistance = Infinity;
        var at = network.getPositions(data.nodes.map(function (n) { return n.id; }).filter(function (id) {
          return shown[id] && !loaded[id];
        }));
        Object.keys(at).forEach(function (id) {
          var d = Math.hypot(at[id].x - centre.x, at[id].y - centre.y);
          if (d < reach && d < bestDistance) { best = Number(id); bestDistance = d; }
        });
        if (best !== null) expand(best, 1).catch(failed);
      }, 250);
    });

    function failed(err) {
      status.textContent = "The papers could not be loaded (" + err.message + "). The text version lists them.";
    }

    function fitCluster(mapId) {
      var ids = [mapId].concat((neighbours[mapId] || []).filter(function (o) {
        return info[o] && info[o].group === "paper" && shown[o];
      }));
      network.fit({ nodes: ids, animation: reduceMotion() ? false : { duration: 300, easingFunction: "easeInOutQuad" } });
    }

    form.addEventListener("change", function (event) {
      var name = event.target.name;
      if (name === "area" || name === "from" || name === "to") apply();
    });
    form.elements.fit.addEventListener("click", function () { network.fit({ animation: !reduceMotion() }); });
    form.elements.collapse.addEventListener("click", collapse);

    /* ---- search: the map and loaded papers first, then the index ---- */

    function loadIndex() {
      if (searchIndex) return Promise.resolve(searchIndex);
      status.textContent = "Loading the search index…";
      var url = new URL(root.getAttribute("data-index-src"), location.href).href;
      return fetchJSON(url).then(function (index) {
        if (index.v !== FORMAT) throw new Error("format " + index.v);
        searchIndex = index.papers.map(function (row) {
          return { title: String(row[0]), lower: String(row[0]).toLocaleLowerCase(), home: row[1],
                   part: row[2], url: row[3] };
        });
        return searchIndex;
      });
    }

    function rankOf(label, q) {
      var at = label.indexOf(q);
      return at === -1 ? -1 : label === q ? 0 : at === 0 ? 1 : 2;
    }

    function matches(query) {
      var q = query.toLocaleLowerCase();
      var found = [];
      Object.keys(info).forEach(function (id) {
        var n = info[id];
        if (n.group === "more") return;
        var rank = rankOf(String(n.label).toLocaleLowerCase(), q);
        if (rank !== -1) found.push({ id: n.id, rank: rank, value: n.value || 0, label: String(n.label) });
      });
      found.sort(function (a, b) {
        return a.rank - b.rank || b.value - a.value || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
      });
      return found;
    }

    function resetFilters() {
      form.elements.area.value = "";
      form.elements.from.value = "";
      form.elements.to.value = "";
      apply();
    }

    function focusNode(id, note) {
      var n = info[id];
      if (!shown[id]) resetFilters();
      network.selectNodes([id]);
      var scale = Math.max(network.getScale(), 1.2);
      var animate = !reduceMotion();
      network.focus(id, { scale: scale, animation: animate ? { duration: 350, easingFunction: "easeInOutQuad" } : false });
      function done() {
        entry.focused = id;
        var at = network.canvasToDOM(network.getPositions([id])[id]);
        showTip(entry.tip, n, at.x, at.y, entry.more(n));
      }
      if (animate) network.once("animationFinished", done); else done();
      status.textContent = "";
      status.appendChild(document.createTextNode("Found " + (TYPE_NAMES[n.group] || n.group) + " “" + n.label + "”" +
        (note || "") + ". "));
      var url = safeURL(n.url);
      if (url) {
        var open = document.createElement("a");
        open.href = url;
        open.textContent = "Open its page";
        status.appendChild(open);
      }
    }

    var lastQuery = "", matchIndex = 0;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var query = form.elements.q.value.trim();
      if (!query) return;
      var q = query.toLocaleLowerCase();
      loadIndex().then(function (index) {
        /* Drawn nodes and map nodes first, then papers not drawn yet. */
        var found = matches(query).map(function (f) { return { id: f.id }; });
        var have = {};
        found.forEach(function (f) { have[f.id] = true; });
        var far = [];
        index.forEach(function (row) {
          var rank = rankOf(row.lower, q);
          if (rank !== -1 && !have["p:" + row.url]) far.push({ row: row, rank: rank });
        });
        far.sort(function (a, b) { return a.rank - b.rank; });   /* stable: newest first within a rank */
        found = found.concat(far.map(function (f) { return { row: f.row }; }));
        if (!found.length) { status.textContent = "Nothing matches “" + query + "”."; return; }
        matchIndex = query === lastQuery ? (matchIndex + 1) % found.length : 0;
        lastQuery = query;
        var hit = found[matchIndex];
        var note = " (" + (matchIndex + 1) + " of " + found.length + (found.length > 1 ? "; press Enter for the next" : "") + ")";
        if (hit.id !== undefined) {
          /* A map node found from the keyboard gets its papers too, as a click would. */
          if (typeof hit.id === "number" && !loaded[hit.id]) {
            expand(hit.id, 1).then(function () { focusNode(hit.id, note); }, failed);
          } else {
            focusNode(hit.id, note);
          }
          return;
        }
        var row = hit.row;
        if (row.home < 0) {
          status.textContent = "";
          status.appendChild(document.createTextNode("“" + row.title + "” is on no node of the map. "));
          var url = safeURL(row.url);
          if (url) { var a = document.createElement("a"); a.href = url; a.textContent = "Open its page"; status.appendChild(a); }
          return;
        }
        var parts = [];
        for (var part = (loaded[row.home] || 0) + 1; part <= row.part; part += 1) parts.push(part);
        parts.reduce(function (chain, p) { return chain.then(function () { return expand(row.home, p); }); },
                     Promise.resolve()).then(function () {
          if (info["p:" + row.url]) focusNode("p:" + row.url, note);
        }, failed);
      }, function (err) {
        status.textContent = "The search index could not be loaded (" + err.message + ").";
      });
    });
  }

  function initExplorer(root) {
    var status = root.querySelector(".atlas-graph-status");
    status.textContent = "Loading the graph…";
    var url = new URL(root.getAttribute("data-src"), location.href).href;
    Promise.all([loadVis(), fetchJSON(url)]).then(function (results) {
      if (!root.isConnected) return;
      drawExplorer(root, results[0], results[1]);
    }, function (err) {
      status.textContent = "The graph could not be loaded (" + err.message +
        "). The text version above lists the same map and every node's papers.";
    });
  }

  /* ---- lifecycle -------------------------------------------------------- */

  function forgetDetached() {
    for (var i = registry.length - 1; i >= 0; i -= 1) {
      if (!registry[i].container.isConnected) {
        registry[i].network.destroy();
        if (registry.explorer === registry[i]) registry.explorer = null;
        registry.splice(i, 1);
      }
    }
  }

  function init() {
    forgetDetached();
    var locals = Array.prototype.filter.call(document.querySelectorAll(".atlas-local-graph"),
      function (el) { return !el.hasAttribute("data-atlas-init"); });
    var explorers = Array.prototype.filter.call(document.querySelectorAll(".atlas-explorer"),
      function (el) { return !el.hasAttribute("data-atlas-init"); });
    if (!locals.length && !explorers.length) return;
    locals.concat(explorers).forEach(function (el) { el.setAttribute("data-atlas-init", ""); });
    explorers.forEach(initExplorer);
    locals.forEach(whenNearView);
  }

  /* A page's local graph sits below its lists, usually out of view: vis-network
     (about 480 KB) is fetched and the graph drawn only when the graph comes
     within a screen of the viewport, so a reader who never scrolls there
     downloads none of it. Its data is inline in the page (data-graph). */
  function drawLocalNow(el) {
    loadVis().then(function (vis) {
      if (el.isConnected) drawLocal(el, vis);
    }, function () {
      el.setAttribute("data-atlas-error", "vis-network");
    });
  }

  function whenNearView(el) {
    if (typeof IntersectionObserver === "undefined") { drawLocalNow(el); return; }
    var watcher = new IntersectionObserver(function (entries) {
      if (!entries.some(function (entry) { return entry.isIntersecting; })) return;
      watcher.disconnect();
      drawLocalNow(el);
    }, { rootMargin: "100% 0px" });
    watcher.observe(el);
  }

  new MutationObserver(function () {
    registry.forEach(function (entry) { entry.restyle(); });
  }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

  if (typeof document$ !== "undefined") { document$.subscribe(init); }
  else if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); }
  else { init(); }
})();
