// Event-loop health and the metrics endpoint: GET /metrics over a real socket (no key), parsed as
// Prometheus text; a loop deliberately blocked for N ms shows a max delay of at least that; the
// periodic `event_loop` log line; worker-pool and fill gauges; off unless the server enables it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type Listening } from "../../server/http/listen";
import { resolveServeConfig, UsageError } from "../../server/config";
import { LOOP_DELAY_RESOLUTION_MS, monitorEventLoop, type EventLoopMonitor } from "../../server/metrics/event-loop";
import { dailyFillCollector } from "../../server/metrics/fill-gauges";
import { workerPoolCollector } from "../../server/metrics/pool-gauges";
import { createMetricsRegistry, PROMETHEUS_CONTENT_TYPE, renderPrometheus } from "../../server/metrics/registry";
import { createFillTracker } from "../../server/daily-store/progress";
import { parsePrometheusText, type ParsedFamily } from "../_helpers/prometheus-text";
import { makeHarness } from "./_harness";

/** Holds the event loop for `ms` (what a CPU-bound handler does). */
function blockLoop(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

const value = (f: ParsedFamily | undefined, labels: Record<string, string> = {}) =>
  f?.samples.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

describe("the registry's text", () => {
  it("HELP, TYPE and samples with escaped labels; counters end in _total; a failing collector is left out", () => {
    const r = createMetricsRegistry();
    r.gauge("a_gauge", "A gauge.\nTwo lines.", () => 1.5);
    r.counter("b_total", "A counter.", () => [{ labels: { pool: 'x"y\\z' }, value: 3 }]);
    r.register(() => {
      throw new Error("broken");
    });
    expect(() => r.counter("not_a_counter_name", "x", () => 1)).toThrow(/_total/);
    expect(() => r.gauge("bad-name", "x", () => 1)).toThrow(/Prometheus name/);
    const text = r.render();
    expect(text).toBe(
      '# HELP a_gauge A gauge.\\nTwo lines.\n# TYPE a_gauge gauge\na_gauge 1.5\n# HELP b_total A counter.\n# TYPE b_total counter\nb_total{pool="x\\"y\\\\z"} 3\n',
    );
    const parsed = parsePrometheusText(text);
    expect(parsed.get("b_total")).toEqual({ help: "A counter.", type: "counter", samples: [{ name: "b_total", labels: { pool: 'x"y\\z' }, value: 3 }] });
    expect(renderPrometheus([{ name: "n", help: "h", type: "gauge", samples: [{ value: Number.NaN }, { value: Number.POSITIVE_INFINITY }] }])).toContain(
      "n NaN\nn +Inf\n",
    );
  });
});

describe("GET /metrics", () => {
  const registry = createMetricsRegistry();
  let loop: EventLoopMonitor;
  let server: Listening;
  let h: ReturnType<typeof makeHarness>;
  beforeAll(async () => {
    loop = monitorEventLoop({ registry });
    registry.register(workerPoolCollector(() => [{ name: "compute", workers: 2, queued: 3, running: 1, completed: 5 }, null]));
    const fill = createFillTracker();
    fill.setRunning(true);
    fill.update("vol-reading", { done: 10, total: 40, finished: false });
    registry.register(dailyFillCollector(() => fill.snapshot()));
    h = makeHarness({ metrics: registry, serveMetrics: true });
    server = await listen(h.app, { port: 0 });
  });
  afterAll(async () => {
    loop.stop();
    await server.close(true);
  });

  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(PROMETHEUS_CONTENT_TYPE);
    expect(res.headers.get("cache-control")).toBe("no-store");
    return parsePrometheusText(await res.text());
  };

  it("answers without a key: event loop, in-flight requests, worker pools and the fill, each a typed family", async () => {
    const m = await scrape();
    for (const name of ["p50", "p99", "max"]) {
      const f = m.get(`optionscope_event_loop_delay_${name}_seconds`);
      expect(f?.type).toBe("gauge");
      expect(f!.samples).toHaveLength(1);
      expect(f!.samples[0].value).toBeGreaterThanOrEqual(0);
      expect(f!.samples[0].value).toBeLessThan(60);
    }
    const [p50, p99, max] = ["p50", "p99", "max"].map((n) => value(m.get(`optionscope_event_loop_delay_${n}_seconds`))!);
    expect(p50).toBeLessThanOrEqual(p99);
    expect(p99).toBeLessThanOrEqual(max);
    const elu = m.get("optionscope_event_loop_utilization");
    expect(elu?.type).toBe("gauge");
    expect(value(elu)).toBeGreaterThanOrEqual(0);
    expect(value(elu)).toBeLessThanOrEqual(1);
    // This scrape is itself in flight.
    expect(m.get("optionscope_http_requests_in_flight")?.type).toBe("gauge");
    expect(value(m.get("optionscope_http_requests_in_flight"))).toBeGreaterThanOrEqual(1);
    expect(value(m.get("optionscope_worker_pool_queued"), { pool: "compute" })).toBe(3);
    expect(value(m.get("optionscope_worker_pool_workers"), { pool: "compute" })).toBe(2);
    expect(value(m.get("optionscope_worker_pool_running"), { pool: "compute" })).toBe(1);
    expect(value(m.get("optionscope_worker_pool_utilization"), { pool: "compute" })).toBe(0.5);
    expect(m.get("optionscope_worker_pool_tasks_completed_total")?.type).toBe("counter");
    expect(value(m.get("optionscope_worker_pool_tasks_completed_total"), { pool: "compute" })).toBe(5);
    expect(m.get("optionscope_worker_pool_queued")!.samples).toHaveLength(1); // a pool not started has none
    expect(value(m.get("optionscope_daily_fill_running"))).toBe(1);
    expect(value(m.get("optionscope_daily_fill_rows_planned"), { kind: "vol-reading" })).toBe(40);
    expect(value(m.get("optionscope_daily_fill_rows_done"), { kind: "vol-reading" })).toBe(10);
  });

  it("a loop blocked for N ms shows a max delay of at least N ms (less the sampling resolution), busy utilisation", async () => {
    await scrape(); // starts a new window
    const N = 250;
    await new Promise((r) => setTimeout(r, 30));
    blockLoop(N);
    await new Promise((r) => setTimeout(r, 30));
    const m = await scrape();
    expect(value(m.get("optionscope_event_loop_delay_max_seconds"))!).toBeGreaterThanOrEqual((N - LOOP_DELAY_RESOLUTION_MS) / 1000);
    // Busy for N ms of a window of N ms plus two short waits (longer on a loaded machine).
    expect(value(m.get("optionscope_event_loop_utilization"))!).toBeGreaterThan(0.1);
  });

  it("is not served unless the server enables it (404), and is never on the API description", async () => {
    const off = makeHarness({ metrics: createMetricsRegistry() });
    expect((await off.app.request("/metrics")).status).toBe(404);
    const doc = await (await h.app.request("/v1/openapi.json")).json();
    expect(Object.keys(doc.paths)).not.toContain("/metrics");
  });
});

describe("the event_loop log line", () => {
  it("comes every interval in the server's log format, with the window's delays", async () => {
    const lines: Record<string, unknown>[] = [];
    const loop = monitorEventLoop({ log: (l) => lines.push(l), logIntervalMs: 100 });
    try {
      await new Promise((r) => setTimeout(r, 20));
      // No line can be written during the block: the first one after it covers it.
      const before = lines.length;
      blockLoop(150);
      while (lines.length === before) await new Promise((r) => setTimeout(r, 20));
      const line = lines[before];
      expect(line).toMatchObject({ level: "info", msg: "event_loop" });
      expect(new Date(String(line.ts)).toISOString()).toBe(line.ts);
      expect(line.delayMaxMs as number).toBeGreaterThanOrEqual(150 - LOOP_DELAY_RESOLUTION_MS);
      expect(line.delayP50Ms as number).toBeLessThanOrEqual(line.delayP99Ms as number);
      expect(line.utilization as number).toBeGreaterThan(0);
    } finally {
      loop.stop();
    }
  });
});

describe("serve flags", () => {
  it("--metrics / OPTIONSCOPE_METRICS=on; OPTIONSCOPE_LOOP_LOG_S in seconds, refused out of range naming it", () => {
    expect(resolveServeConfig([], {}).metrics).toBe(false);
    expect(resolveServeConfig(["--metrics"], {}).metrics).toBe(true);
    expect(resolveServeConfig([], { OPTIONSCOPE_METRICS: "on" }).metrics).toBe(true);
    expect(resolveServeConfig([], {}).loopLogIntervalMs).toBeUndefined();
    expect(resolveServeConfig([], { OPTIONSCOPE_LOOP_LOG_S: "0" }).loopLogIntervalMs).toBe(0);
    expect(resolveServeConfig([], { OPTIONSCOPE_LOOP_LOG_S: "15" }).loopLogIntervalMs).toBe(15_000);
    expect(() => resolveServeConfig([], { OPTIONSCOPE_LOOP_LOG_S: "-1" })).toThrow(UsageError);
    expect(() => resolveServeConfig([], { OPTIONSCOPE_LOOP_LOG_S: "soon" })).toThrow(/OPTIONSCOPE_LOOP_LOG_S/);
  });
});
