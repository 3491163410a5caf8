// Browser entry of the chart page (served as /chart/app.js, after /chart/lightweight-charts.js).
// It reads the API key from `#key=` or localStorage, sends it as `Authorization: Bearer`, and
// feeds lightweight-charts (v5: chart.addSeries(CandlestickSeries, ...), from the global the
// library's standalone build defines) from our own /v1/symbols, /v1/time, /v1/history and
// /v1/search. `#chart[data-bars-drawn]` says how many candles are on screen (the browser test
// reads it). Marks (/v1/marks and /v1/timescale_marks) go on the candles as series markers and,
// as links to the minute's heatmap, in `#marks` below the chart; `#chart[data-marks-drawn]` counts them.
import type { CandlestickData, HistogramData, SeriesMarker, SeriesMarkerBarPosition, SeriesMarkerShape, Time, UTCTimestamp } from "lightweight-charts";
import type { HistoryBody } from "../../../../lib/price/history";
import type { BarMark, TimescaleMark } from "../../../../lib/price/marks";
import { RESOLUTIONS, type Resolution } from "../../../../lib/price/resolution";
import type { SearchResult } from "../../../../lib/price/search";
import type { UdfSymbolInfo } from "../../../../lib/price/symbol-info";
import { CHART_COUNTBACK } from "../countback";
import { apiCaller, KEY_STORAGE, storedKey } from "./api";
import { barIndexOf, etWallSeconds } from "./time";

type Mark = BarMark | TimescaleMark;

const LC = (window as unknown as { LightweightCharts: typeof import("lightweight-charts") }).LightweightCharts;
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const root = byId<HTMLDivElement>("chart");
const statusEl = byId<HTMLSpanElement>("status");
const creditsEl = byId<HTMLSpanElement>("credits");
const label = byId<HTMLSpanElement>("simulated-label");
const symbolInput = byId<HTMLInputElement>("symbol");
const resSelect = byId<HTMLSelectElement>("resolution");
const extBox = byId<HTMLInputElement>("extended");
const keyInput = byId<HTMLInputElement>("key");
const list = byId<HTMLDataListElement>("symbols");
const legendName = byId<HTMLSpanElement>("legend-name");
const legendValues = byId<HTMLSpanElement>("legend-values");
const base = location.pathname.replace(/\/chart\/?$/, "");

function normRes(value: string | null): Resolution {
  let r = String(value || "").toUpperCase();
  if (r === "1D") r = "D";
  if (r === "1W") r = "W";
  return (RESOLUTIONS as readonly string[]).includes(r) ? (r as Resolution) : "D";
}

const params = new URLSearchParams(location.search);
const state = {
  symbol: (params.get("symbol") || "SPY").trim().toUpperCase(),
  resolution: normRes(params.get("resolution") || "D"),
  extended: params.get("extended") === "true",
};

// A key in the fragment (never sent to the server) is stored, then removed from the address bar.
const fragmentKey = new URLSearchParams(location.hash.replace(/^#/, "")).get("key");
if (fragmentKey) {
  localStorage.setItem(KEY_STORAGE, fragmentKey);
  history.replaceState(null, "", location.pathname + location.search);
}
keyInput.value = storedKey();
symbolInput.value = state.symbol;
resSelect.value = state.resolution;
extBox.checked = state.extended;

function setStatus(text: string, isError?: boolean): void {
  statusEl.textContent = text;
  statusEl.className = isError ? "error" : "";
}

const api = apiCaller(base, (credits) => {
  creditsEl.textContent = `${credits} credits left`;
});

const chart = LC.createChart(root, {
  autoSize: true,
  layout: { background: { color: "#0f1419" }, textColor: "#d1d4dc" },
  grid: { vertLines: { color: "#1e222d" }, horzLines: { color: "#1e222d" } },
  timeScale: { timeVisible: true, secondsVisible: false, borderColor: "#2a2e39" },
  rightPriceScale: { borderColor: "#2a2e39" },
  crosshair: { mode: LC.CrosshairMode.Normal },
});
const candles = chart.addSeries(LC.CandlestickSeries, {
  upColor: "#26a69a",
  downColor: "#ef5350",
  borderVisible: false,
  wickUpColor: "#26a69a",
  wickDownColor: "#ef5350",
});
candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } });
const volume = chart.addSeries(LC.HistogramSeries, { priceFormat: { type: "volume" }, priceScaleId: "" });
volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });

// Marks: series markers on the candles, and the same marks as links in #marks (keyboard, tests).
const markers = LC.createSeriesMarkers(candles, []);
const marksNav = document.createElement("nav");
marksNav.id = "marks";
marksNav.setAttribute("aria-label", "Chart marks");
// Overlaid along the bottom (over the volume pane) so the chart keeps its height.
marksNav.style.cssText =
  "position:fixed;left:0;right:0;bottom:0;z-index:3;display:flex;flex-wrap:wrap;gap:2px 12px;" +
  "font:12px sans-serif;padding:4px 8px;max-height:4.5em;overflow:auto;background:rgba(15,20,25,0.85)";
document.body.appendChild(marksNav);
// The heatmap page is on {base_url}: the chart's path prefix without the atlas part (one-port layout).
const heatmapRoot = base.replace(/\/atlas$/, "");
let markUrls: Record<string, string> = {};
const MARK_STYLE: Record<string, [SeriesMarkerBarPosition, SeriesMarkerShape]> = {
  king_node: ["aboveBar", "circle"],
  sweep: ["belowBar", "arrowUp"],
  dark_pool_block: ["aboveBar", "square"],
  earnings: ["belowBar", "square"],
};

function showMarks(all: readonly Mark[], times: readonly number[], intraday: boolean): void {
  const shown: SeriesMarker<Time>[] = [];
  markUrls = {};
  marksNav.textContent = "";
  for (const m of all) {
    const k = barIndexOf(times, m.time);
    if (k < 0) continue;
    const [position, shape] = MARK_STYLE[m.kind] || ["aboveBar", "circle"];
    const text = ("text" in m && m.text) || (("tooltip" in m && m.tooltip) || []).join(" \u00b7 ");
    const href = heatmapRoot + m.url;
    shown.push({ time: (intraday ? etWallSeconds(times[k]) : times[k]) as UTCTimestamp, position, shape, color: m.color, text: m.label, id: m.id });
    markUrls[m.id] = href;
    const a = document.createElement("a");
    a.href = href;
    a.textContent = `${m.label} ${text}`;
    a.title = text;
    a.dataset.kind = m.kind;
    a.style.color = m.color;
    marksNav.appendChild(a);
  }
  shown.sort((x, y) => (x.time as number) - (y.time as number));
  markers.setMarkers(shown);
  root.dataset.marksDrawn = String(shown.length);
}

async function loadMarks(seq: number, s: string, r: Resolution, times: readonly number[], to: number, intraday: boolean): Promise<void> {
  if (!times.length) {
    showMarks([], times, intraday);
    return;
  }
  const q = { symbol: s, resolution: r, from: String(times[0]), to: String(to) };
  try {
    const [bar, scale] = await Promise.all([api<BarMark[]>("marks", q), api<TimescaleMark[]>("timescale_marks", q)]);
    if (seq === loadSeq) showMarks([...bar, ...scale], times, intraday);
  } catch (e) {
    if (seq !== loadSeq) return;
    root.dataset.marksDrawn = "0";
    root.dataset.marksError = (e as Error).message;
  }
}

// A click on a marker opens that minute's heatmap.
chart.subscribeClick((p) => {
  const id = p?.hoveredObjectId;
  if (typeof id === "string" && markUrls[id]) location.href = markUrls[id];
});

let lastBar: CandlestickData<Time> | null = null;
function showLegend(bar: CandlestickData<Time> | null): void {
  if (!bar) {
    legendValues.textContent = "";
    return;
  }
  legendValues.textContent = `O ${bar.open}  H ${bar.high}  L ${bar.low}  C ${bar.close}`;
}
chart.subscribeCrosshairMove((p) => {
  const d = p?.seriesData ? (p.seriesData.get(candles) as CandlestickData<Time> | undefined) : null;
  showLegend(d || lastBar);
});

let loadSeq = 0;
async function load(): Promise<void> {
  const seq = ++loadSeq;
  const { symbol: s, resolution: r, extended: ext } = state;
  root.dataset.state = "loading";
  delete root.dataset.marksDrawn;
  if (!storedKey()) {
    root.dataset.state = "needs-key";
    setStatus("Enter an API key to load bars.", true);
    return;
  }
  setStatus(`Loading ${s} ${r}...`);
  try {
    const info = await api<UdfSymbolInfo>("symbols", { symbol: s });
    const to = Number(await api<number>("time")) + 60;
    const body = await api<HistoryBody>("history", {
      symbol: s,
      resolution: r,
      from: String(to - 1),
      to: String(to),
      countback: String(CHART_COUNTBACK),
      extended: String(ext),
    });
    if (seq !== loadSeq) return;
    const simulated = info.simulated === true || info.data_status === "simulated";
    label.hidden = !simulated;
    legendName.textContent = `${info.ticker} \u00b7 ${info.description}`;
    const intraday = r !== "D" && r !== "W";
    const bars: CandlestickData<Time>[] = [];
    const vols: HistogramData<Time>[] = [];
    if (body.s === "ok") {
      for (let k = 0; k < body.t.length; k++) {
        const time = (intraday ? etWallSeconds(body.t[k]) : body.t[k]) as UTCTimestamp;
        const up = body.c[k] >= body.o[k];
        bars.push({ time, open: body.o[k], high: body.h[k], low: body.l[k], close: body.c[k] });
        vols.push({ time, value: body.v[k], color: up ? "rgba(38,166,154,0.45)" : "rgba(239,83,80,0.45)" });
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
    setStatus(bars.length ? `${bars.length} bars` : "No bars in this window.");
    const q = new URLSearchParams({ symbol: s, resolution: r });
    if (ext) q.set("extended", "true");
    history.replaceState(null, "", `${location.pathname}?${q.toString()}`);
    await loadMarks(seq, s, r, body.s === "ok" ? body.t : [], to, intraday);
  } catch (e) {
    if (seq !== loadSeq) return;
    root.dataset.state = "error";
    setStatus((e as Error).message, true);
  }
}
(window as unknown as { optionscopeChart: unknown }).optionscopeChart = { load, state };

byId<HTMLFormElement>("key-form").addEventListener("submit", (e) => {
  e.preventDefault();
  localStorage.setItem(KEY_STORAGE, keyInput.value.trim());
  void load();
});
byId<HTMLFormElement>("symbol-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const v = symbolInput.value.trim().toUpperCase();
  if (v) {
    state.symbol = v;
    void load();
  }
});
symbolInput.addEventListener("change", () => {
  const v = symbolInput.value.trim().toUpperCase();
  if (v && v !== state.symbol) {
    state.symbol = v;
    void load();
  }
});
resSelect.addEventListener("change", () => {
  state.resolution = normRes(resSelect.value);
  void load();
});
extBox.addEventListener("change", () => {
  state.extended = extBox.checked;
  void load();
});

// Symbol suggestions from /v1/search, debounced (each search costs a credit).
let searchTimer: ReturnType<typeof setTimeout> | undefined;
symbolInput.addEventListener("input", () => {
  clearTimeout(searchTimer);
  const q = symbolInput.value.trim();
  if (!q || !storedKey()) return;
  searchTimer = setTimeout(() => {
    api<SearchResult[]>("search", { query: q, limit: "10" })
      .then((hits) => {
        list.textContent = "";
        for (const h of hits) {
          const o = document.createElement("option");
          o.value = h.symbol;
          o.label = `${h.description} (${h.exchange})`;
          list.appendChild(o);
        }
      })
      .catch(() => {});
  }, 250);
});

void load();
