// The page's controller: loads a board once from its source, recomputes in the browser on every
// control change (metric, expirations, strikes, sign, what-if spot) and redraws; loads the
// session history; replays any minute; follows the live stream. State shown to tests and screen
// readers on `#board[data-state]` and `#status`, owned by one state machine (page-status.ts).
import { loadKernels, type KernelEngine } from "optionscope/kernels";
import { formatUsd, type PositioningChain } from "optionscope/positioning";
import { etInstant, marketStateAt, sessionBounds } from "optionscope/time";
import { openStream } from "optionscope/stream-client";
import { etHhmm, etYmd } from "./et-format";
import { drawBoard, drawLegend, drawSession, drawSpotProfile, hoverAt, labelBoxes, remeasure, unitLabel, type LabelBox } from "./draw";
import type { HeatmapPageConfig } from "../heatmap-html";
import { chainFromBoard, computeView, spotProfileOf, DEFAULT_SETTINGS, SIGN_CONVENTIONS, type BoardJson, type HeatmapView, type ViewSettings } from "./model";
import { PageApiError, type DataSource, type SessionFrame } from "./source";
import { INITIAL_STATUS, nextStatus, settleWithin, type LoadOrigin, type PageEvent, type PageStatus } from "./page-status";

const MINUTE_MS = 60_000;
/** The what-if slider moves spot in steps of 0.1% (its range is +-5%). */
const WHATIF_STEP = 0.001;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The canvases that carry values: each answers the pointer with a tooltip. */
const CANVASES = ["board", "legend", "spot-profile", "session"] as const;

/**
 * The board's height, CSS pixels: the viewport less the page's header rows and the controls under
 * the board, so that the board and the key levels fit above the fold at 1366x768 (at most 520).
 */
function boardHeight(): number {
  return Math.round(Math.max(300, Math.min(520, innerHeight - 250)));
}

/** Sets text or an attribute only when it changes: an unchanged write still costs a layout. */
function setText(node: HTMLElement, text: string) {
  if (node.textContent !== text) node.textContent = text;
}
function setAttr(node: HTMLElement, name: string, value: string) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/** While the what-if slider moves, the levels list waits this long after the last step (ms). */
const LEVELS_SETTLE_MS = 150;
/** A board that has not arrived by then fails the load (docs/methodology.md, "Heatmap page states"). */
const BOARD_DEADLINE_MS = 60_000;

/** What the page exposes on `window.__heatmap` (the browser test reads it). */
export interface HeatmapPageHandle {
  settings: ViewSettings;
  board: BoardJson | null;
  view: HeatmapView | null;
  frames: SessionFrame[];
  /** Board loads, recomputations and first-paint time (ms since navigation start). */
  stats: {
    boards: number;
    recomputes: number;
    /** First heatmap painted, first board received, kernels ready: ms since navigation start. */
    firstPaintMs: number | null;
    firstBoardMs: number | null;
    kernelsMs: number | null;
    /** Time spent computing views and drawing them, ms, summed over `recomputes`. */
    computeMs: number;
    drawMs: number;
  };
  /** The boxes of the labels printed on each canvas (the browser test checks that none overlap). */
  labels(): Record<string, LabelBox[]>;
  /** The computed matrix as rows (for comparison with the API). */
  cells(): { strikes: number[]; expirations: string[]; matrix: number[][]; spot: number; asOf: string } | null;
}

/** Start the page over `source`. */
export async function startHeatmapPage(source: DataSource, config: HeatmapPageConfig): Promise<HeatmapPageHandle> {
  const boardCanvas = $<HTMLCanvasElement>("board");
  const status = $("status");
  const el = {
    symbol: $<HTMLSelectElement>("symbol"),
    metric: $<HTMLSelectElement>("metric"),
    expirations: $<HTMLSelectElement>("expirations"),
    strikes: $<HTMLSelectElement>("strikes"),
    sign: $<HTMLSelectElement>("sign"),
    date: $<HTMLInputElement>("date"),
    time: $<HTMLInputElement>("time"),
    live: $<HTMLInputElement>("live"),
    whatif: $<HTMLInputElement>("whatif"),
    whatifValue: $<HTMLOutputElement>("whatif-value"),
    scrub: $<HTMLInputElement>("scrub"),
    scrubValue: $<HTMLOutputElement>("scrub-value"),
    history: $<HTMLSelectElement>("history"),
  };

  boardCanvas.setAttribute("height", String(boardHeight()));
  const params = new URLSearchParams(location.search);
  const handle: HeatmapPageHandle = {
    settings: { ...DEFAULT_SETTINGS, metric: params.get("metric") === "vanna" ? "vanna" : "gamma" },
    board: null,
    view: null,
    frames: [],
    stats: { boards: 0, recomputes: 0, firstPaintMs: null, firstBoardMs: null, kernelsMs: null, computeMs: 0, drawMs: 0 },
    labels() {
      return Object.fromEntries(CANVASES.map((id) => [id, labelBoxes($<HTMLCanvasElement>(id))]));
    },
    cells() {
      const v = handle.view;
      if (!v) return null;
      const nExp = v.grid.expirations.length;
      return {
        strikes: Array.from(v.grid.strikes),
        expirations: v.grid.expirations,
        matrix: Array.from(v.grid.strikes, (_, i) => Array.from(v.grid.matrix.subarray(i * nExp, (i + 1) * nExp))),
        spot: v.grid.spot,
        asOf: v.frame.asOf,
      };
    },
  };
  (globalThis as unknown as { __heatmap: HeatmapPageHandle }).__heatmap = handle;

  for (const [value, { label }] of Object.entries(SIGN_CONVENTIONS)) el.sign.add(new Option(label, value));
  el.metric.value = handle.settings.metric;
  const at = params.get("at");
  const startMs = at && Number.isFinite(Date.parse(at)) ? Date.parse(at) : config.nowMs;
  el.date.value = etYmd(startMs);
  el.date.max = etYmd(config.nowMs);
  el.time.value = etHhmm(startMs);
  el.live.checked = !at;
  // The first replayed minute, without lib/time's calendar (built on first use, after the first
  // paint): the pickers hold startMs's ET date and minute, whose instant is startMs floored to the minute.
  let firstAtMs: number | null = at ? Math.floor(startMs / MINUTE_MS) * MINUTE_MS : null;

  // The kernels compile while the first board downloads.
  const enginePromise = loadKernels().then((e) => {
    $("engine").textContent = `Computed in this browser: ${e.name === "wasm" ? "WASM" : "JavaScript"} kernels`;
    boardCanvas.dataset.engine = e.name;
    handle.stats.kernelsMs = performance.now();
    return e;
  });
  let engine: KernelEngine | null = null;

  /** Resolves once the first board is painted (or failed). */
  let boardSettled!: () => void;
  const boardPainted = new Promise<void>((resolve) => (boardSettled = resolve));
  let chain: PositioningChain | null = null;
  let pendingWhatIf = false;
  /** Numbers the board loads; the page status knows the newest (`PageStatus.load`). */
  let loads = 0;
  let pageStatus: PageStatus = INITIAL_STATUS;
  let dragging = false;
  let levelsTimer: ReturnType<typeof setTimeout> | undefined;
  // The spot profile of the loaded board, per metric/expirations/sign (the what-if spot does not change it).
  let legendKey = "";
  let profileCache: { key: string; profile: ReturnType<typeof spotProfileOf> } | null = null;

  /** The metric the loaded session history was computed in. */
  let historyMetric: string = handle.settings.metric;

  /**
   * Live exists only while a session is: the market clock inside the regular session and the
   * board of that very session (docs/methodology.md#heatmap-page-live). Otherwise Live is turned
   * off and disabled, so a closed market costs no stream credits, and the note says what is shown.
   */
  function updateLiveAvailability(board: BoardJson) {
    if (source.kind !== "api") {
      el.live.checked = false;
      el.live.disabled = true;
      return;
    }
    const nowMs = config.nowMs; // the market clock when the page was served
    const live = marketStateAt(nowMs) === "open" && board.sessionDate === etYmd(nowMs);
    el.live.disabled = !live;
    if (!live) el.live.checked = false;
    setText($("live-note"), live ? "" : `No live session now (${etYmd(nowMs)} ${etHhmm(nowMs)} ET): showing ${board.sessionDate} ${etHhmm(board.asOfMs)} ET`);
  }

  // Tooltips: every canvas answers the pointer with the value under it.
  const tip = $("tip");
  for (const id of CANVASES) {
    const canvas = $<HTMLCanvasElement>(id);
    canvas.addEventListener("pointermove", (e) => {
      const r = canvas.getBoundingClientRect();
      const info = hoverAt(canvas, e.clientX - r.left, e.clientY - r.top);
      if (!info) {
        tip.hidden = true;
        return;
      }
      const title = Object.assign(document.createElement("strong"), { textContent: info.title });
      tip.replaceChildren(title, ...info.lines.map((l) => Object.assign(document.createElement("div"), { textContent: l })));
      tip.dataset.canvas = id;
      tip.hidden = false;
      const x = Math.min(e.clientX + 14, innerWidth - tip.offsetWidth - 4);
      const y = e.clientY + 16 + tip.offsetHeight > innerHeight ? e.clientY - tip.offsetHeight - 8 : e.clientY + 16;
      tip.style.left = `${Math.max(4, x)}px`;
      tip.style.top = `${Math.max(4, y)}px`;
    });
    canvas.addEventListener("pointerleave", () => {
      tip.hidden = true;
    });
  }

  /** The one writer of the board's state and the status line. A refusal also stops following. */
  function apply(event: PageEvent) {
    const next = nextStatus(pageStatus, event);
    if (next === pageStatus) return;
    pageStatus = next;
    setAttr(boardCanvas, "data-state", next.state);
    if (next.errorCode === null) boardCanvas.removeAttribute("data-error-code");
    else setAttr(boardCanvas, "data-error-code", next.errorCode);
    setText(status, next.message);
    status.className = next.errorCode === null ? "" : "error";
    if (next.refused) syncStream();
  }

  /** Recompute from the loaded board with the current settings and redraw (no network). */
  function recompute() {
    if (!chain || !handle.board || !engine) return;
    const s = handle.settings;
    const key = `${handle.board.asOfMs}|${s.metric}|${s.maxExpirations}|${s.sign}`;
    if (profileCache?.key !== key) profileCache = { key, profile: spotProfileOf(chain, s, engine) };
    const t0 = performance.now();
    handle.view = computeView(chain, s, engine, profileCache.profile);
    const t1 = performance.now();
    handle.stats.computeMs += t1 - t0;
    handle.stats.recomputes++;
    const view = handle.view;
    const scale = drawBoard(boardCanvas, view, handle.board.spot);
    const unit = unitLabel(view.grid.meta.unit);
    if (legendKey !== `${scale}|${unit}`) {
      legendKey = `${scale}|${unit}`;
      drawLegend($<HTMLCanvasElement>("legend"), scale, unit);
    }
    drawSpotProfile($<HTMLCanvasElement>("spot-profile"), view, handle.board.spot, s.metric);
    // The list re-flows the page: during a drag it follows once the slider rests.
    clearTimeout(levelsTimer);
    if (dragging) levelsTimer = setTimeout(() => handle.view && renderLevels(handle.view), LEVELS_SETTLE_MS);
    else renderLevels(view);
    setText(el.whatifValue, `${view.grid.spot.toFixed(2)} (${((100 * (view.grid.spot - handle.board.spot)) / handle.board.spot).toFixed(1)}%)`);
    setText(
      $("board-title"),
      `${view.grid.symbol} ${handle.settings.metric}, ${handle.board.sessionDate} ${etHhmm(handle.board.asOfMs)} ET: strike x expiration ($ ${unit})`,
    );
    setText($("levels-title"), `Key levels (${handle.settings.metric}, ${handle.board.sessionDate} ${etHhmm(handle.board.asOfMs)} ET)`);
    setAttr(
      boardCanvas,
      "aria-label",
      `${view.grid.symbol} ${handle.settings.metric} heatmap, ${view.grid.strikes.length} strikes by ${view.grid.expirations.length} expirations`,
    );
    setAttr(boardCanvas, "data-cells", String(view.grid.matrix.length));
    setAttr(boardCanvas, "data-as-of", handle.board.asOf);
    handle.stats.drawMs += performance.now() - t1;
    if (handle.stats.firstPaintMs === null) handle.stats.firstPaintMs = performance.now();
  }

  function renderLevels(view: HeatmapView) {
    const list = $("levels");
    const s = view.levels.summary;
    const items = [
      `Spot ${view.grid.spot.toFixed(2)}; net ${formatUsd(s.netExposure)}`,
      view.levels.kingNode ? `King node ${view.levels.kingNode.strike} (${formatUsd(view.levels.kingNode.value)})` : "No king node",
      `Flip ${s.flip ? s.flip.level.toFixed(2) : "none in window"} (running net by strike changes sign)`,
      `Zero gamma ${view.zeroGamma !== null ? view.zeroGamma.toFixed(2) : handle.settings.metric === "gamma" ? "none within 10%" : "(gamma only)"} (total gamma is zero if spot moves there)`,
      s.positiveWall ? `Positive wall ${s.positiveWall.strike} (${formatUsd(s.positiveWall.value)})` : "",
      s.negativeWall ? `Negative wall ${s.negativeWall.strike} (${formatUsd(s.negativeWall.value)})` : "",
      ...view.levels.levels.slice(0, 5).map((l) => `${l.nodeType} ${l.strike} (${formatUsd(l.value)}, ${l.distancePct.toFixed(2)}%)`),
    ].filter(Boolean);
    list.replaceChildren(...items.map((t) => Object.assign(document.createElement("li"), { textContent: t })));
  }

  /**
   * Fetch the board at the picked minute (or now when live), then recompute. Every load settles
   * (board, failure or deadline); only the newest one's outcome is shown. The page's own loads
   * (`origin` "page") do not start while a refusal stands.
   */
  async function loadBoard(withHistory: boolean, origin: LoadOrigin) {
    if (origin === "page" && pageStatus.refused) return;
    const atMs = el.live.checked ? null : (firstAtMs ?? etInstant(el.date.value, el.time.value || "16:00"));
    firstAtMs = null;
    const symbol = el.symbol.value;
    const load = ++loads;
    apply({ kind: "load-started", load, origin, symbol });
    let loaded = false;
    try {
      const board = settleWithin(
        source.board(symbol, atMs),
        BOARD_DEADLINE_MS,
        `The ${symbol} board did not arrive within ${BOARD_DEADLINE_MS / 1000} s: pick the minute again or reload the page.`,
      );
      board.catch(() => undefined); // handled below, after the kernels are awaited
      engine ??= await enginePromise;
      const received = await board;
      if (load !== pageStatus.load) return; // a newer load (symbol, minute) superseded this one
      handle.board = received;
      handle.stats.firstBoardMs ??= performance.now();
      handle.stats.boards++;
      chain = chainFromBoard(handle.board);
      // The pickers show the board's own session and minute (ET), whatever was asked for.
      el.date.value = received.sessionDate;
      el.time.value = etHhmm(received.asOfMs);
      updateLiveAvailability(received);
      el.whatif.value = "0";
      handle.settings.whatIfSpot = null;
      recompute();
      apply({ kind: "board-loaded", load, message: boardMessage() });
      loaded = true;
    } catch (error) {
      apply({ kind: "load-failed", load, error });
    } finally {
      if (load === pageStatus.load) boardSettled();
    }
    if (loaded && withHistory) await loadHistory();
    if (started) syncStream();
  }

  function boardMessage(): string {
    const board = handle.board!;
    return `${board.symbol} board of ${etYmd(board.asOfMs)} ${etHhmm(board.asOfMs)} ET: ${board.contracts.oi.length} contracts`;
  }

  async function loadHistory() {
    if (!handle.board) return;
    const endMs = handle.board.asOfMs;
    const openMs = sessionBounds(handle.board.sessionDate).openMs;
    const fromMs = Math.max(openMs, endMs - Number(el.history.value) * MINUTE_MS);
    const s = handle.settings;
    const load = pageStatus.load;
    try {
      const metric = s.metric;
      const frames = await source.history(el.symbol.value, fromMs, endMs, { metric, maxStrikes: s.maxStrikes, maxExpirations: s.maxExpirations });
      if (load !== pageStatus.load || metric !== handle.settings.metric) return; // a newer metric's history is on its way
      handle.frames = frames;
      historyMetric = metric;
      // The history keeps the settings it was loaded with (reloading costs credits): say which.
      setText(
        $("session-title"),
        `Session ${handle.board.sessionDate}: ${metric} by strike and minute (ET), spot path (${s.maxStrikes} strikes, ${s.maxExpirations} expirations)`,
      );
      $("session").dataset.metric = metric;
      el.scrub.max = String(Math.max(0, handle.frames.length - 1));
      el.scrub.value = el.scrub.max;
      scrub();
      // A history refused earlier (a standing refusal over a valid board) is lifted when it loads.
      if (pageStatus.refused) {
        apply({ kind: "board-loaded", load, message: boardMessage() });
        if (started) syncStream();
      }
    } catch (error) {
      apply({ kind: "load-failed", load, error });
    }
  }

  function scrub() {
    const k = Number(el.scrub.value);
    const canvas = $<HTMLCanvasElement>("session");
    drawSession(canvas, handle.frames, k, historyMetric);
    canvas.dataset.frames = String(handle.frames.length);
    const f = handle.frames[k];
    setText(el.scrubValue, f ? `${etYmd(f.tMs)} ${etHhmm(f.tMs)} ET, spot ${f.spot.toFixed(2)}, net ${formatUsd(f.values.reduce((a, b) => a + b, 0))}` : "");
  }

  function updateHistoryCost() {
    const minutes = Number(el.history.value);
    $("history-cost").textContent = source.kind === "api" ? `${Math.ceil(minutes / 16) * 25} credits at most (25 per 15 minutes)` : "computed in the browser";
  }

  // Every setting recomputes from the loaded board, without a round trip.
  const settingsFromControls = () => {
    const n = (v: string) => (v === "all" ? ("all" as const) : Number(v));
    handle.settings.metric = el.metric.value === "vanna" ? "vanna" : "gamma";
    handle.settings.maxExpirations = n(el.expirations.value);
    handle.settings.maxStrikes = n(el.strikes.value);
    handle.settings.sign = el.sign.value;
  };
  for (const c of [el.metric, el.expirations, el.strikes, el.sign]) {
    c.addEventListener("change", () => {
      settingsFromControls();
      recompute();
      // Every panel follows the metric: the session history is reloaded in it (its credits, as a load).
      if (c === el.metric && handle.frames.length > 0 && historyMetric !== handle.settings.metric) void loadHistory();
    });
  }
  el.whatif.addEventListener("input", () => {
    if (!handle.board) return;
    const k = Number(el.whatif.value);
    handle.settings.whatIfSpot = k === 0 ? null : handle.board.spot * (1 + k * WHATIF_STEP);
    // Several input events within one frame (a fast drag) cost one recompute.
    if (pendingWhatIf) return;
    pendingWhatIf = true;
    requestAnimationFrame(() => {
      pendingWhatIf = false;
      dragging = true;
      recompute();
      dragging = false;
    });
  });
  $("whatif-reset").addEventListener("click", () => {
    el.whatif.value = "0";
    el.whatif.dispatchEvent(new Event("input"));
  });
  el.scrub.addEventListener("input", scrub);
  // Releasing the scrubber replays the full board of that minute.
  el.scrub.addEventListener("change", () => {
    const f = handle.frames[Number(el.scrub.value)];
    if (!f) return;
    el.live.checked = false;
    el.date.value = etYmd(f.tMs);
    el.time.value = etHhmm(f.tMs);
    void loadBoard(false, "user");
  });
  el.symbol.addEventListener("change", () => void loadBoard(true, "user"));
  el.date.addEventListener("change", () => {
    el.live.checked = false;
    void loadBoard(true, "user");
  });
  el.time.addEventListener("change", () => {
    el.live.checked = false;
    void loadBoard(true, "user");
  });
  el.history.addEventListener("change", updateHistoryCost);
  $("history-load").addEventListener("click", () => void loadHistory());
  updateHistoryCost();

  // Live: the positioning stream says when a new minute's board exists; the page appends its
  // frame to the session and reloads the board (API only; the static build has no stream).
  /** Set once the first board settled: from then on each load leaves the stream as `syncStream` says. */
  let started = false;
  let liveStream: { symbol: string; close(): void } | null = null;
  /** Follows the shown symbol while Live is on and no refusal stands; otherwise closes the stream. */
  function syncStream() {
    const wanted = el.live.checked && source.kind === "api" && !pageStatus.refused ? el.symbol.value : null;
    if (liveStream?.symbol === wanted) return;
    liveStream?.close();
    liveStream = null;
    if (wanted === null) return;
    const s = handle.settings;
    const follower = { symbol: wanted, close: () => client.close() };
    const client = openStream({
      baseUrl: location.origin + config.base,
      apiKey: localStorage.getItem("optionscope.apiKey") ?? "",
      symbols: [wanted],
      params: { metric: s.metric, maxStrikes: String(s.maxStrikes), maxExpirations: String(s.maxExpirations) },
      onStatus: (st) => {
        if (st.state !== "ended" || liveStream !== follower) return;
        liveStream = null; // a later load opens a new one (unless a refusal stands)
        const e = st.end.kind === "failed" ? st.end.error : null;
        if (e?.status) apply({ kind: "stream-failed", error: new PageApiError(e.status, e.code, e.message) });
      },
      onEvent: (e) => {
        if (e.event !== "snapshot") return;
        // `snapshot` data is the symbol's /v1/heatmap entry (docs/api.md#stream-events).
        const entry = e.data as { symbol?: string; asOf: string; spot: number; strikes: { strike: number; value: number }[] };
        if (!entry || entry.symbol !== el.symbol.value || !Array.isArray(entry.strikes)) return;
        const tMs = Date.parse(entry.asOf);
        if (handle.frames.length && handle.frames[handle.frames.length - 1].tMs >= tMs) return;
        handle.frames.push({ tMs, spot: entry.spot, strikes: entry.strikes.map((c) => c.strike), values: entry.strikes.map((c) => c.value) });
        el.scrub.max = String(handle.frames.length - 1);
        el.scrub.value = el.scrub.max;
        scrub();
        if (el.live.checked && (!handle.board || tMs > handle.board.asOfMs)) void loadBoard(false, "page");
      },
    });
    liveStream = follower;
  }
  el.live.addEventListener("change", () => {
    if (el.live.checked) void loadBoard(true, "user");
    else syncStream();
  });

  // The first board (the asked symbol) first: the symbol list waits until it is painted, so the
  // server builds the board alone (first paint, docs/api.md#heatmap-page-first-paint).
  const wanted = (params.get("symbol") ?? "SPY").toUpperCase();
  el.symbol.add(new Option(wanted, wanted));
  const firstBoard = loadBoard(true, "page");
  await boardPainted;
  await source.symbols().then(
    (symbols) => {
      for (const sym of symbols) if (sym !== wanted) el.symbol.add(new Option(sym, sym));
    },
    () => undefined, // the board's own error says what is wrong (key, credits)
  );
  await firstBoard;
  started = true;
  syncStream();
  addEventListener("resize", () => {
    boardCanvas.setAttribute("height", String(boardHeight()));
    remeasure();
    legendKey = "";
    recompute();
    scrub();
  });
  return handle;
}
