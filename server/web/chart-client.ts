// The chart page's script (plain browser JavaScript, served as /chart/app.js). It reads the API key
// from `#key=` or localStorage, sends it as `Authorization: Bearer`, and feeds lightweight-charts
// (v5: chart.addSeries(CandlestickSeries, ...)) from our own /v1/symbols, /v1/time, /v1/history and
// /v1/search. `#chart[data-bars-drawn]` says how many candles are on screen (the browser test reads it).
// Marks (/v1/marks and /v1/timescale_marks) go on the candles as series markers and, as links to
// the minute's heatmap, in `#marks` below the chart; `#chart[data-marks-drawn]` counts them.

/** Bars asked per load: within every tier's cap (500 daily, 500 weekly = 2,500 days, 500 x 8h = 500 days). */
export const CHART_COUNTBACK = 500;

/** The script's source. */
export const CHART_CLIENT_JS = String.raw`(function () {
  "use strict";
  var LC = window.LightweightCharts;
  var KEY = "optionscope.apiKey";
  var COUNTBACK = "${CHART_COUNTBACK}";
  var RESOLUTIONS = ["1", "2", "3", "5", "15", "30", "60", "240", "480", "D", "W"];
  var root = document.getElementById("chart");
  var statusEl = document.getElementById("status");
  var creditsEl = document.getElementById("credits");
  var label = document.getElementById("simulated-label");
  var symbolInput = document.getElementById("symbol");
  var resSelect = document.getElementById("resolution");
  var extBox = document.getElementById("extended");
  var keyInput = document.getElementById("key");
  var list = document.getElementById("symbols");
  var legendName = document.getElementById("legend-name");
  var legendValues = document.getElementById("legend-values");
  var base = location.pathname.replace(/\/chart\/?$/, "");

  function normRes(r) {
    r = String(r || "").toUpperCase();
    if (r === "1D") r = "D";
    if (r === "1W") r = "W";
    return RESOLUTIONS.indexOf(r) >= 0 ? r : "D";
  }

  var params = new URLSearchParams(location.search);
  var state = {
    symbol: (params.get("symbol") || "SPY").trim().toUpperCase(),
    resolution: normRes(params.get("resolution") || "D"),
    extended: params.get("extended") === "true"
  };

  // A key in the fragment (never sent to the server) is stored, then removed from the address bar.
  var frag = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (frag.get("key")) {
    localStorage.setItem(KEY, frag.get("key"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  keyInput.value = localStorage.getItem(KEY) || "";
  symbolInput.value = state.symbol;
  resSelect.value = state.resolution;
  extBox.checked = state.extended;

  function setStatus(text, isError) {
    statusEl.textContent = text;
    statusEl.className = isError ? "error" : "";
  }

  function api(path, query) {
    var key = localStorage.getItem(KEY) || "";
    var url = base + "/v1/" + path + (query ? "?" + new URLSearchParams(query).toString() : "");
    return fetch(url, { headers: key ? { Authorization: "Bearer " + key } : {} }).then(function (res) {
      var credits = res.headers.get("X-Credits-Remaining");
      if (credits !== null) creditsEl.textContent = credits + " credits left";
      return res.text().then(function (text) {
        var body;
        try { body = JSON.parse(text); } catch (e) { body = text; }
        if (!res.ok) {
          var msg = (body && (body.errmsg || (body.error && body.error.message) || body.error)) || ("HTTP " + res.status);
          throw new Error(String(msg));
        }
        return body;
      });
    });
  }

  // Intraday bars are shown in New York time: lightweight-charts draws UTC, so shift each stamp.
  var etParts = new Intl.DateTimeFormat("en-US", {
    timeZone: "America/New_York", hourCycle: "h23", year: "numeric", month: "2-digit",
    day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit"
  });
  function etWallSeconds(sec) {
    var p = {};
    etParts.formatToParts(new Date(sec * 1000)).forEach(function (x) { p[x.type] = x.value; });
    return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour % 24, +p.minute, +p.second) / 1000;
  }

  var chart = LC.createChart(root, {
    autoSize: true,
    layout: { background: { color: "#0f1419" }, textColor: "#d1d4dc" },
    grid: { vertLines: { color: "#1e222d" }, horzLines: { color: "#1e222d" } },
    timeScale: { timeVisible: true, secondsVisible: false, borderColor: "#2a2e39" },
    rightPriceScale: { borderColor: "#2a2e39" },
    crosshair: { mode: 0 }
  });
  var candles = chart.addSeries(LC.CandlestickSeries, {
    upColor: "#26a69a", downColor: "#ef5350", borderVisible: false,
    wickUpColor: "#26a69a", wickDownColor: "#ef5350"
  });
  candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } });
  var volume = chart.addSeries(LC.HistogramSeries, { priceFormat: { type: "volume" }, priceScaleId: "" });
  volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });

  // Marks: series markers on the candles, and the same marks as links in #marks (keyboard, tests).
  var markers = LC.createSeriesMarkers(candles, []);
  var marksNav = document.createElement("nav");
  marksNav.id = "marks";
  marksNav.setAttribute("aria-label", "Chart marks");
  // Overlaid along the bottom (over the volume pane) so the chart keeps its height.
  marksNav.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:3;display:flex;flex-wrap:wrap;gap:2px 12px;" +
    "font:12px sans-serif;padding:4px 8px;max-height:4.5em;overflow:auto;background:rgba(15,20,25,0.85)";
  document.body.appendChild(marksNav);
  // The heatmap page is on {base_url}: the chart's path prefix without the atlas part (one-port layout).
  var heatmapRoot = base.replace(/\/atlas$/, "");
  var markUrls = {};
  var MARK_STYLE = {
    king_node: ["aboveBar", "circle"], sweep: ["belowBar", "arrowUp"],
    dark_pool_block: ["aboveBar", "square"], earnings: ["belowBar", "square"]
  };

  // Index of the last bar starting at or before sec (-1 when none): the bar a mark belongs to.
  function barIndexOf(times, sec) {
    var lo = 0, hi = times.length - 1, at = -1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (times[mid] <= sec) { at = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return at;
  }

  function showMarks(all, times, intraday) {
    var list = [];
    markUrls = {};
    marksNav.textContent = "";
    all.forEach(function (m) {
      var k = barIndexOf(times, m.time);
      if (k < 0) return;
      var st = MARK_STYLE[m.kind] || ["aboveBar", "circle"];
      var text = m.text || (m.tooltip || []).join(" \u00b7 ");
      var href = heatmapRoot + m.url;
      list.push({ time: intraday ? etWallSeconds(times[k]) : times[k], position: st[0], shape: st[1], color: m.color, text: m.label, id: m.id });
      markUrls[m.id] = href;
      var a = document.createElement("a");
      a.href = href;
      a.textContent = m.label + " " + text;
      a.title = text;
      a.dataset.kind = m.kind;
      a.style.color = m.color;
      marksNav.appendChild(a);
    });
    list.sort(function (x, y) { return x.time - y.time; });
    markers.setMarkers(list);
    root.dataset.marksDrawn = String(list.length);
  }

  function loadMarks(seq, s, r, times, to, intraday) {
    if (!times.length) { showMarks([], times, intraday); return Promise.resolve(); }
    var q = { symbol: s, resolution: r, from: String(times[0]), to: String(to) };
    return Promise.all([api("marks", q), api("timescale_marks", q)]).then(function (res) {
      if (seq === loadSeq) showMarks(res[0].concat(res[1]), times, intraday);
    }).catch(function (e) {
      if (seq !== loadSeq) return;
      root.dataset.marksDrawn = "0";
      root.dataset.marksError = e.message;
    });
  }

  // A click on a marker opens that minute's heatmap.
  chart.subscribeClick(function (p) {
    var id = p && p.hoveredObjectId;
    if (id && markUrls[id]) location.href = markUrls[id];
  });

  var lastBar = null;
  function showLegend(bar) {
    if (!bar) { legendValues.textContent = ""; return; }
    legendValues.textContent = "O " + bar.open + "  H " + bar.high + "  L " + bar.low + "  C " + bar.close;
  }
  chart.subscribeCrosshairMove(function (p) {
    var d = p && p.seriesData ? p.seriesData.get(candles) : null;
    showLegend(d || lastBar);
  });

  var loadSeq = 0;
  function load() {
    var seq = ++loadSeq;
    var s = state.symbol, r = state.resolution, ext = state.extended;
    root.dataset.state = "loading";
    delete root.dataset.marksDrawn;
    if (!localStorage.getItem(KEY)) {
      root.dataset.state = "needs-key";
      setStatus("Enter an API key to load bars.", true);
      return Promise.resolve();
    }
    setStatus("Loading " + s + " " + r + "...");
    var info, to;
    return api("symbols", { symbol: s })
      .then(function (i) { info = i; return api("time"); })
      .then(function (now) {
        to = Number(now) + 60;
        return api("history", { symbol: s, resolution: r, from: String(to - 1), to: String(to), countback: COUNTBACK, extended: String(ext) });
      })
      .then(function (body) {
        if (seq !== loadSeq) return;
        var simulated = info.simulated === true || info.data_status === "simulated";
        label.hidden = !simulated;
        legendName.textContent = info.ticker + " \u00b7 " + info.description;
        var intraday = r !== "D" && r !== "W";
        var bars = [], vols = [];
        if (body.s === "ok") {
          for (var k = 0; k < body.t.length; k++) {
            var time = intraday ? etWallSeconds(body.t[k]) : body.t[k];
            var up = body.c[k] >= body.o[k];
            bars.push({ time: time, open: body.o[k], high: body.h[k], low: body.l[k], close: body.c[k] });
            vols.push({ time: time, value: body.v[k], color: up ? "rgba(38,166,154,0.45)" : "rgba(239,83,80,0.45)" });
          }
        }
        candles.setData(bars);
        volume.setData(vols);
        chart.timeScale().fitContent();
        lastBar = bars.length ? bars[bars.length - 1] : null;
        showLegend(lastBar);
        root.dataset.barsDrawn = String(bars.length);
        root.dataset.symbol = s;
        root.dataset.resolution = r;
        root.dataset.state = "ready";
        setStatus(bars.length ? bars.length + " bars" : "No bars in this window.");
        var q = new URLSearchParams({ symbol: s, resolution: r });
        if (ext) q.set("extended", "true");
        history.replaceState(null, "", location.pathname + "?" + q.toString());
        return loadMarks(seq, s, r, body.s === "ok" ? body.t : [], to, intraday);
      })
      .catch(function (e) {
        if (seq !== loadSeq) return;
        root.dataset.state = "error";
        setStatus(e.message, true);
      });
  }
  window.optionscopeChart = { load: load, state: state };

  document.getElementById("key-form").addEventListener("submit", function (e) {
    e.preventDefault();
    localStorage.setItem(KEY, keyInput.value.trim());
    load();
  });
  document.getElementById("symbol-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var v = symbolInput.value.trim().toUpperCase();
    if (v) { state.symbol = v; load(); }
  });
  symbolInput.addEventListener("change", function () {
    var v = symbolInput.value.trim().toUpperCase();
    if (v && v !== state.symbol) { state.symbol = v; load(); }
  });
  resSelect.addEventListener("change", function () { state.resolution = normRes(resSelect.value); load(); });
  extBox.addEventListener("change", function () { state.extended = extBox.checked; load(); });

  // Symbol suggestions from /v1/search, debounced (each search costs a credit).
  var searchTimer = 0;
  symbolInput.addEventListener("input", function () {
    clearTimeout(searchTimer);
    var q = symbolInput.value.trim();
    if (!q || !localStorage.getItem(KEY)) return;
    searchTimer = setTimeout(function () {
      api("search", { query: q, limit: "10" }).then(function (hits) {
        list.textContent = "";
        hits.forEach(function (h) {
          var o = document.createElement("option");
          o.value = h.symbol;
          o.label = h.description + " (" + h.exchange + ")";
          list.appendChild(o);
        });
      }).catch(function () {});
    }, 250);
  });

  load();
})();
`;
