// Browser entry of the chart page (served as /chart/app.js, after /chart/lightweight-charts.js).
// It reads the API key from `#key=` or localStorage, sends it as `Authorization: Bearer`, and
// feeds lightweight-charts (v5: chart.addSeries(CandlestickSeries, ...), from the global the
// library's standalone build defines) from our own /v1/symbols, /v1/time, /v1/history and
// /v1/search. `#chart[data-bars-drawn]` says how many candles are on screen (the browser test
// reads it). Marks (/v1/marks and /v1/timescale_marks) go on the candles as series markers and,
// as links to the minute's heatmap, in `#marks` below the chart; `#chart[data-marks-drawn]` counts them.
// The key levels of the symbol's positioning board (/v1/gex/levels on {base_url}: king node, flip,
// zero gamma, walls) are price lines on the candles, refreshed each minute while the market is open;
// `#chart[data-levels]` lists them. Bars and marks are asked for together, the levels as the bars arrive.
import type { CandlestickData, HistogramData, IPriceLine, SeriesMarker, SeriesMarkerBarPosition, SeriesMarkerShape, Time, UTCTimestamp } from "lightweight-charts";
import type { HistoryBody } from "../../../../lib/price/history";
import type { BarMark, TimescaleMark } from "../../../../lib/price/marks";
import { RESOLUTIONS, type Resolution } from "../../../../lib/price/resolution";
import { marketStateAt } from "../../../../lib/time/market-state";
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
// Below the chart, in the page's flow: it never covers the time or price axis.
marksNav.style.cssText =
  "flex:none;display:flex;flex-wrap:wrap;gap:2px 12px;font:12px sans-serif;padding:4px 8px;max-height:4.5em;overflow:auto;border-top:1px solid #2a2e39";
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

// Key levels as price lines (docs/methodology.md#chart-key-levels).
const baseApi = apiCaller(heatmapRoot, (credits) => {
  creditsEl.textContent = `${credits} credits left`;
});
/** Each level's line style: colour, dash (lightweight-charts LineStyle) and title. */
const LEVEL_STYLE: Record<string, { color: string; style: number; title: string }> = {
  king: { color: "#ffd54f", style: 0, title: "king" },
  flip: { color: "#ffca28", style: 2, title: "flip" },
  zeroGamma: { color: "#e040fb", style: 1, title: "zero gamma" },
  positiveWall: { color: "#26a69a", style: 3, title: "positive wall" },
  negativeWall: { color: "#ef5350", style: 3, title: "negative wall" },
};
type LevelsEntry = {
  symbol: string;
  asOf: string;
  kingNode: { strike: number } | null;
  summary: { flip: { level: number } | null; zeroGamma: { level: number | null }; positiveWall: { strike: number } | null; negativeWall: { strike: number } | null };
};
let priceLines: IPriceLine[] = [];
let positioningSymbols: Promise<{ symbol: string; underlying: string }[]> | null = null;
let levelsTimer: ReturnType<typeof setInterval> | undefined;

/** The positioning board charted for a ticker: its first option root (SPX -> SPXW), as the marks' links. */
async function positioningSymbolOf(ticker: string): Promise<string | null> {
  positioningSymbols ??= baseApi<{ data: { symbols: { symbol: string; underlying: string }[] } }>("symbols").then(
    (b) => b.data.symbols,
    () => [],
  );
  const all = await positioningSymbols;
  return (all.find((s) => s.underlying === ticker) ?? all.find((s) => s.symbol === ticker))?.symbol ?? null;
}

/** The levels of `ticker`'s board now, or null when it has none (no options, no board, an error). */
async function fetchLevels(ticker: string): Promise<LevelsEntry | null> {
  const symbol = await positioningSymbolOf(ticker);
  if (!symbol) return null;
  const body = await baseApi<{ data: { symbols: LevelsEntry[] } }>("gex/levels", { symbols: symbol });
  return body.data.symbols[0] ?? null;
}

function showLevels(entry: LevelsEntry | null): void {
  for (const line of priceLines) candles.removePriceLine(line);
  priceLines = [];
  const shown: { kind: string; price: number }[] = [];
  if (entry) {
    const s = entry.summary;
    const levels: [string, number | null | undefined][] = [
      ["king", entry.kingNode?.strike],
      ["flip", s.flip?.level],
      ["zeroGamma", s.zeroGamma.level],
      ["positiveWall", s.positiveWall?.strike],
      ["negativeWall", s.negativeWall?.strike],
    ];
    for (const [kind, price] of levels) {
      if (price === null || price === undefined || !Number.isFinite(price)) continue;
      const st = LEVEL_STYLE[kind];
      priceLines.push(
        candles.createPriceLine({
          price,
          color: st.color,
          lineWidth: 1,
          lineStyle: st.style,
          axisLabelVisible: true,
          title: `${st.title} ${Math.round(price * 100) / 100}`,
        }),
      );
      shown.push({ kind, price });
    }
    const legend = byId<HTMLSpanElement>("levels-legend");
    legend.replaceChildren(
      ...shown.flatMap(({ kind, price }) => {
        const b = Object.assign(document.createElement("b"), { textContent: `${LEVEL_STYLE[kind].title} ${Math.round(price * 100) / 100}` });
        b.style.color = LEVEL_STYLE[kind].color;
        return [b, document.createTextNode(" ")];
      }),
    );
    root.dataset.levelsAsOf = entry.asOf;
    root.dataset.levelsSymbol = entry.symbol;
  }
  root.dataset.levels = JSON.stringify(shown);
}

/** While the market is open the levels follow the minute: asked again every 60 s (1 credit each). */
function followLevels(seq: number, ticker: string, serverNowS: number): void {
  clearInterval(levelsTimer);
  const startedMs = Date.now();
  levelsTimer = setInterval(() => {
    if (seq !== loadSeq) return clearInterval(levelsTimer);
    if (document.visibilityState !== "visible") return;
    if (marketStateAt(serverNowS * 1000 + (Date.now() - startedMs)) !== "open") return;
    fetchLevels(ticker).then(
      (e) => seq === loadSeq && showLevels(e),
      () => undefined,
    );
  }, 60_000);
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
    const [info, now] = await Promise.all([api<UdfSymbolInfo>("symbols", { symbol: s }), api<number>("time")]);
    const to = Number(now) + 60;
    // Bars and marks together: the marks are asked from 0 (a UDF window may start anywhere; marks
    // before the first bar are not drawn) so that they do not wait for the bars.
    const marksQuery = { symbol: s, resolution: r, from: "0", to: String(to) };
    const marksLoad = Promise.all([api<BarMark[]>("marks", marksQuery), api<TimescaleMark[]>("timescale_marks", marksQuery)]);
    marksLoad.catch(() => undefined); // handled after the bars
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
    // The levels (one board) while the marks finish: the marks are the longer call.
    const [marks, levels] = await Promise.all([marksLoad.catch((e: Error) => e), fetchLevels(s).catch(() => null)]);
    if (seq !== loadSeq) return;
    showLevels(levels);
    followLevels(seq, s, Number(now));
    if (marks instanceof Error) {
      root.dataset.marksDrawn = "0";
      root.dataset.marksError = marks.message;
    } else showMarks([...marks[0], ...marks[1]], body.s === "ok" ? body.t : [], intraday);
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
