/**
 * Event-loop health, sampled continuously with `perf_hooks.monitorEventLoopDelay`: the delay's
 * p50, p99 and max and the loop's utilisation, as gauges of a metrics registry (over the time
 * since the previous scrape) and as a periodic log line (over the time since the previous line).
 * Each consumer has its own histogram, so a scrape does not reset what the log line reports.
 * See docs/operations.md#metrics.
 */
import { monitorEventLoopDelay, performance, type EventLoopUtilization, type IntervalHistogram } from "node:perf_hooks";
import type { MetricFamily, MetricsRegistry } from "./registry";

/** Histogram sampling resolution, ms: a stall shorter than this can go unseen. */
export const LOOP_DELAY_RESOLUTION_MS = 10;
/** Default period of the `event_loop` log line, ms. */
export const LOOP_LOG_INTERVAL_MS = 60_000;

/** One window's reading: delays in ms, utilisation 0-1. */
interface LoopReading {
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
  /** Share of the window the loop was busy (not waiting for I/O or timers). */
  utilization: number;
}

/**
 * A histogram and utilisation baseline read and restarted as one window. The histogram records
 * the time between its sampling timer's runs, which an idle loop keeps at the resolution: the
 * delay is that time less the resolution (0 when idle, N ms more when the loop was held N ms).
 */
function loopWindow(resolutionMs: number): { read(): LoopReading; empty(): boolean; stop(): void } {
  const h: IntervalHistogram = monitorEventLoopDelay({ resolution: resolutionMs });
  h.enable();
  let elu: EventLoopUtilization = performance.eventLoopUtilization();
  const ms = (ns: number) => (Number.isFinite(ns) ? Math.max(0, ns / 1e6 - resolutionMs) : 0);
  return {
    read() {
      // No sample yet (a window shorter than the resolution): every delay reads 0.
      const empty = h.count === 0;
      const now = performance.eventLoopUtilization();
      const reading: LoopReading = {
        delayP50Ms: empty ? 0 : ms(h.percentile(50)),
        delayP99Ms: empty ? 0 : ms(h.percentile(99)),
        delayMaxMs: empty ? 0 : ms(h.max),
        utilization: performance.eventLoopUtilization(now, elu).utilization,
      };
      elu = now;
      h.reset();
      return reading;
    },
    empty: () => h.count === 0,
    stop: () => h.disable(),
  };
}

export interface EventLoopMonitorOptions {
  /** Gauges go here (read over the time since the previous scrape). */
  registry?: MetricsRegistry;
  /** The `event_loop` line goes here every `logIntervalMs` (absent: no line). */
  log?: (fields: Record<string, unknown>) => void;
  logIntervalMs?: number;
  resolutionMs?: number;
}

export interface EventLoopMonitor {
  /** Reads and restarts the log window now (what the next periodic line would report). */
  readLogWindow(): LoopReading;
  stop(): void;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The families of one scrape window. */
function loopFamilies(r: LoopReading): MetricFamily[] {
  const g = (name: string, help: string, value: number): MetricFamily => ({ name, help, type: "gauge", samples: [{ value }] });
  return [
    g("optionscope_event_loop_delay_p50_seconds", "Median event-loop delay since the previous scrape.", r.delayP50Ms / 1000),
    g("optionscope_event_loop_delay_p99_seconds", "99th percentile of the event-loop delay since the previous scrape.", r.delayP99Ms / 1000),
    g("optionscope_event_loop_delay_max_seconds", "Longest event-loop delay since the previous scrape.", r.delayMaxMs / 1000),
    g("optionscope_event_loop_utilization", "Share of the time since the previous scrape the event loop was busy (0-1).", r.utilization),
  ];
}

/**
 * Start sampling the event loop. Timers are unref'd: the monitor never keeps a process alive.
 * @example const loop = monitorEventLoop({ registry, log: (l) => console.log(JSON.stringify(l)) }); ... loop.stop();
 */
export function monitorEventLoop(o: EventLoopMonitorOptions = {}): EventLoopMonitor {
  const resolution = o.resolutionMs ?? LOOP_DELAY_RESOLUTION_MS;
  const scrape = o.registry ? loopWindow(resolution) : null;
  const unregister = scrape && o.registry ? o.registry.register(() => loopFamilies(scrape.read())) : () => {};
  const logWindow = loopWindow(resolution);
  let stopped = false;
  const logLine = (deferred = false) => {
    if (stopped) return;
    // No sample since the last line: the histogram's own timer has not run since (a stall that
    // delayed both timers can order it after this one, even past this turn). One resolution later
    // it has, and the line covers the stall.
    if (logWindow.empty() && !deferred) {
      setTimeout(() => logLine(true), resolution).unref?.();
      return;
    }
    const r = logWindow.read();
    o.log!({
      ts: new Date().toISOString(),
      level: "info",
      msg: "event_loop",
      delayP50Ms: round3(r.delayP50Ms),
      delayP99Ms: round3(r.delayP99Ms),
      delayMaxMs: round3(r.delayMaxMs),
      utilization: round3(r.utilization),
    });
  };
  // The line is read after this turn's timers phase: a stall that made this timer late also made
  // the histogram's own sampling timer late, and that one may be ordered after ours.
  const timer = o.log ? setInterval(() => setImmediate(() => logLine()), o.logIntervalMs ?? LOOP_LOG_INTERVAL_MS) : null;
  timer?.unref?.();
  return {
    readLogWindow: () => logWindow.read(),
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      unregister();
      scrape?.stop();
      logWindow.stop();
    },
  };
}
