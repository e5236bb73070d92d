/* MLSys Atlas graph views: the explorer (graph/) and the local graph on
   every entity page.

   One shared, cached file on every page; it costs nothing where there is no
   graph, because vis-network (served by this site from assets/vendor/) is
   loaded only when a page has a graph container. Positions come from Python
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
   is the explorer. */
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
    network.on("click", function (event) {
      if (event.nodes.length === 1 && info[event.nodes[0]]) go(info[event.nodes[0]].url);
    });
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

  function drawExplorer(root, vis, data) {
    var form = root.querySelector("form.atlas-graph-controls");
    var status = root.querySelector(".atlas-graph-status");
    var host = root.querySelector(".atlas-graph-canvas");
    var names = root.querySelector("datalist");
    var info = {};
    var neighbours = {};
    var loaded = { author: false };

    function link(a, b) {
      (neighbours[a] = neighbours[a] || []).push(b);
      (neighbours[b] = neighbours[b] || []).push(a);
    }
    function absorb(part) {
      part.nodes.forEach(function (n) { info[n.id] = n; });
      part.edges.forEach(function (e) { link(e[0], e[1]); });
      var fragment = document.createDocumentFragment();
      part.nodes.forEach(function (n) {
        var option = document.createElement("option");
        option.value = n.label;
        fragment.appendChild(option);
      });
      names.appendChild(fragment);
    }
    absorb(data);
    /* A paper's areas are those of its techniques: derived here from the
       edges instead of repeated in the data for every paper. */
    data.nodes.forEach(function (n) {
      if (n.group !== "paper" || n.areas) return;
      var seen = {};
      (neighbours[n.id] || []).forEach(function (id) {
        var other = info[id];
        if (other && other.group === "technique") {
          (other.areas || []).forEach(function (area) { seen[area] = true; });
        }
      });
      n.areas = Object.keys(seen);
    });

    var shown = {};
    compute();
    var nodes = new vis.DataSet(data.nodes.map(function (n) { return visNode(n, null, true); }));
    var edges = new vis.DataSet([]);
    var edgeList = data.edges.slice();
    var view = new vis.DataView(nodes, { filter: function (n) { return shown[n.id] === true; } });

    function state() {
      var layers = {};
      form.querySelectorAll('input[name="layer"]').forEach(function (box) { layers[box.value] = box.checked; });
      return {
        layers: layers, area: form.elements.area.value,
        from: parseInt(form.elements.from.value, 10) || null,
        to: parseInt(form.elements.to.value, 10) || null
      };
    }

    function compute() {
      /* Which nodes pass the filters; venues and authors follow their papers. */
      var s = state();
      var filtered = Boolean(s.area || s.from || s.to);
      var paperOk = {};
      Object.keys(info).forEach(function (id) {
        var n = info[id];
        if (n.group !== "paper") return;
        paperOk[id] = (!s.area || (n.areas || []).indexOf(s.area) !== -1)
          && (!s.from || (n.year && n.year >= s.from))
          && (!s.to || (n.year && n.year <= s.to));
      });
      var count = 0, total = 0;
      Object.keys(info).forEach(function (id) {
        var n = info[id], ok;
        if (n.group === "author" && !loaded.author) return;
        total += 1;
        if (!s.layers[n.group]) ok = false;
        else if (n.group === "paper") ok = paperOk[id];
        else if (n.group === "technique") ok = !s.area || (n.areas || []).indexOf(s.area) !== -1;
        else if (!filtered) ok = true;
        else ok = (neighbours[id] || []).some(function (other) {
          return paperOk[other] === true && s.layers.paper;
        });
        shown[id] = ok;
        if (ok) count += 1;
      });
      return { count: count, total: total };
    }

    function apply(message) {
      var result = compute();
      view.refresh();
      if (message !== false) {
        status.textContent = "Showing " + result.count + " of " + result.total + " nodes.";
      }
    }

    var options = JSON.parse(root.getAttribute("data-options") || "{}");
    options.view = view;
    options.nodes = options.nodes || {};
    options.nodes.scaling = options.nodes.scaling || {};
    /* Size by the square root of the degree: a technique with 1,000 papers
       must not make every paper a dot of minimum size. */
    options.nodes.scaling.customScalingFunction = function (min, max, total, value) {
      if (max === min) return 0.5;
      return (Math.sqrt(value) - Math.sqrt(min)) / (Math.sqrt(max) - Math.sqrt(min));
    };
    var entry = createGraph("explorer", root, host, vis, nodes, edges, info, options);
    registry.explorer = entry;
    var network = entry.network;
    /* A paper's techniques are its edges: the tooltip names them from there
       rather than the data repeating them for every paper. */
    entry.more = function (n) {
      if (n.group !== "paper") return [];
      var names = (neighbours[n.id] || []).filter(function (id) {
        return info[id] && info[id].group === "technique";
      }).map(function (id) { return info[id].label; });
      return names.length ? ["Techniques: " + names.join(", ")] : [];
    };
    entry.edgesDrawn = 0;
    entry.edgeTotal = function () { return edgeList.length; };
    var dragging = false;
    network.on("dragStart", function () { dragging = true; });
    network.on("dragEnd", function () { dragging = false; network.redraw(); });
    network.on("beforeDrawing", function (ctx) {
      var scale = network.getScale();
      if (dragging) return;          /* like vis's hideEdgesOnDrag: panning stays smooth */
      var body = network.body.nodes;
      var count = 0;
      ctx.save();
      ctx.lineWidth = 0.8 / scale;   /* hairlines at every zoom */
      ctx.strokeStyle = entry.palette.edge;
      ctx.beginPath();
      for (var i = 0; i < edgeList.length; i += 1) {
        var a = body[edgeList[i][0]], b = body[edgeList[i][1]];
        if (!a || !b) continue;      /* an end is filtered out */
        ctx.moveTo(a.x, a.y);
        ctx.lineTo(b.x, b.y);
        count += 1;
      }
      /* Tens of thousands of edges would hide the nodes: the more there are,
         the fainter each one. */
      ctx.globalAlpha = Math.max(0.15, Math.min(1, 4000 / Math.max(1, count)));
      ctx.stroke();
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

    /* Labels, drawn here rather than by vis-network: vis scales every label
       with the zoom and draws them all, so dense regions become a wall of
       overlapping text at any zoom (and measuring 5,000 labels slows the
       first render). Here labels have a fixed size on screen, like a map's,
       and are placed greedily, most important first (the selected node,
       areas, then by number of connections): a label that would overlap
       one already placed is left out until the reader zooms in. Papers and
       authors are labelled from 0.5x zoom. */
    var order = labelOrder();
    function labelOrder() {
      var rank = { technique: 1, venue: 1, paper: 2, author: 3 };
      return Object.keys(info).map(function (id) { return info[id]; }).sort(function (a, b) {
        return (b.area ? 1 : 0) - (a.area ? 1 : 0) || rank[a.group] - rank[b.group] ||
          (b.value || 0) - (a.value || 0) || (a.id < b.id ? -1 : 1);
      });
    }
    var LABEL_FONT = { area: "600 14px ", technique: "12px ", venue: "600 12px ", paper: "11px ", author: "10px " };
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
      var queue = selected.length && info[selected[0]] ? [info[selected[0]]].concat(order) : order;
      var done = {};
      for (var i = 0; i < queue.length; i += 1) {
        var n = queue[i];
        if (done[n.id]) continue;
        done[n.id] = true;
        var node = body[n.id];
        if (!node) continue;                       /* filtered out */
        var small = n.group === "paper" || n.group === "author";
        if (small && scale < 0.5 && n.id !== selected[0]) continue;
        var at = network.canvasToDOM({ x: node.x, y: node.y });
        if (at.x < -200 || at.y < -40 || at.x > width + 200 || at.y > height + 40) continue;
        var font = (n.area ? LABEL_FONT.area : LABEL_FONT[n.group]) + FACE;
        ctx.font = font;
        var text = n.canvasLabel || (n.canvasLabel = canvasLabel(n));
        var w = n.labelWidth && n.labelFont === font ? n.labelWidth : (n.labelWidth = ctx.measureText(text).width);
        n.labelFont = font;
        var h = parseInt(font.replace(/^\d00 /, ""), 10) + 2;
        var top = at.y + (node.options.size || 8) * scale + 2;
        var box = [at.x - w / 2 - 2, top, at.x + w / 2 + 2, top + h];
        if (!free(box[0], box[1], box[2], box[3])) continue;
        take(box);
        ctx.strokeText(text, at.x, top);
        ctx.fillText(text, at.x, top);
        drawnLabels += 1;
      }
      ctx.restore();
      entry.labelsDrawn = drawnLabels;
    });
    network.once("afterDrawing", function () { network.fit({ animation: false }); });
    status.textContent = "Showing " + view.length + " of " + data.nodes.length + " nodes. " +
      "Zoom in to read titles; hover a node for details.";

    function loadAuthors() {
      if (loaded.author) return Promise.resolve();
      status.textContent = "Loading the author layer…";
      var url = new URL(root.getAttribute("data-authors-src"), location.href).href;
      return fetchJSON(url).then(function (part) {
        absorb(part);
        loaded.author = true;
        compute();
        nodes.add(part.nodes.map(function (n) { return visNode(n, null, true); }));
        order = labelOrder();
        Array.prototype.push.apply(edgeList, part.edges);
      });
    }

    form.addEventListener("change", function (event) {
      var target = event.target;
      if (target.name === "layer" && target.value === "author" && target.checked && !loaded.author) {
        loadAuthors().then(function () { apply(); }, function (err) {
          target.checked = false;
          status.textContent = "The author layer could not be loaded (" + err.message + ").";
        });
        return;
      }
      if (target.name === "layer" || target.name === "area" || target.name === "from" || target.name === "to") apply();
    });

    form.elements.fit.addEventListener("click", function () { network.fit({ animation: !reduceMotion() }); });

    var lastQuery = "", matchIndex = 0;
    function matches(query) {
      var q = query.toLocaleLowerCase();
      var found = [];
      Object.keys(info).forEach(function (id) {
        var n = info[id];
        var label = String(n.label).toLocaleLowerCase();
        var at = label.indexOf(q);
        if (at === -1) return;
        var rank = label === q ? 0 : at === 0 ? 1 : 2;
        found.push({ id: n.id, rank: rank, shown: shown[id] ? 0 : 1, value: n.value || 0, label: label });
      });
      found.sort(function (a, b) {
        return a.rank - b.rank || a.shown - b.shown || b.value - a.value ||
          (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
      });
      return found.map(function (f) { return f.id; });
    }

    function resetFilters(group) {
      form.elements.area.value = "";
      form.elements.from.value = "";
      form.elements.to.value = "";
      form.querySelectorAll('input[name="layer"]').forEach(function (box) {
        if (box.value === group) box.checked = true;
      });
      apply(false);
    }

    function focusNode(id, found, position) {
      var n = info[id];
      if (!shown[id]) resetFilters(n.group);
      network.selectNodes([id]);
      var scale = Math.max(network.getScale(), 1.1);
      var animate = !reduceMotion();
      network.focus(id, { scale: scale, animation: animate ? { duration: 350, easingFunction: "easeInOutQuad" } : false });
      function done() {
        entry.focused = id;
        var at = network.canvasToDOM(network.getPositions([id])[id]);
        showTip(entry.tip, n, at.x, at.y, entry.more(n));
      }
      if (animate) network.once("animationFinished", done); else done();
      status.textContent = "";
      status.appendChild(document.createTextNode(
        "Found " + TYPE_NAMES[n.group] + " “" + n.label + "” (" + (position + 1) + " of " + found +
        (found > 1 ? "; press Enter for the next" : "") + "). "));
      var url = safeURL(n.url);
      if (url) {
        var open = document.createElement("a");
        open.href = url;
        open.textContent = "Open its page";
        status.appendChild(open);
      }
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var query = form.elements.q.value.trim();
      if (!query) return;
      var found = matches(query);
      if (!found.length) {
        status.textContent = "No node matches “" + query + "”" +
          (loaded.author ? "." : "; authors are searched once their layer is on.");
        return;
      }
      matchIndex = query === lastQuery ? (matchIndex + 1) % found.length : 0;
      lastQuery = query;
      focusNode(found[matchIndex], found.length, matchIndex);
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
        "). The text version above lists the same nodes and edges.";
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
    if (locals.length) {
      loadVis().then(function (vis) {
        locals.forEach(function (el) { if (el.isConnected) drawLocal(el, vis); });
      }, function () {
        locals.forEach(function (el) { el.setAttribute("data-atlas-error", "vis-network"); });
      });
    }
  }

  new MutationObserver(function () {
    registry.forEach(function (entry) { entry.restyle(); });
  }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

  if (typeof document$ !== "undefined") { document$.subscribe(init); }
  else if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); }
  else { init(); }
})();
