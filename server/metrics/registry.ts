/**
 * A small metrics registry: code registers collectors (a gauge read at scrape time, or a family
 * of labelled samples) and the registry renders them in the Prometheus text exposition format
 * (version 0.0.4). No dependency: the format is a few lines per family.
 * See docs/operations.md#metrics.
 */

/** Prometheus metric types the registry writes (`# TYPE`). */
type MetricType = "gauge" | "counter";

/** One sample of a family: its labels (none for a plain gauge) and value. */
interface MetricSample {
  labels?: Readonly<Record<string, string>>;
  value: number;
}

/** One metric family as a scrape sees it. */
export interface MetricFamily {
  /** `[a-zA-Z_:][a-zA-Z0-9_:]*`; a counter's name ends in `_total`. */
  name: string;
  help: string;
  type: MetricType;
  samples: readonly MetricSample[];
}

/** Produces families at scrape time (several at once when they share one reading). */
export type MetricCollector = () => readonly MetricFamily[];

export interface MetricsRegistry {
  /** Adds a collector; the function returned removes it. */
  register(collector: MetricCollector): () => void;
  /**
   * A gauge read at each scrape: one number, or labelled samples (one per pool, ...).
   * @example const off = registry.gauge("optionscope_http_requests_in_flight", "Requests being answered.", () => inFlight);
   */
  gauge(name: string, help: string, read: () => number | readonly MetricSample[]): () => void;
  /** A counter read at each scrape (a value that only grows), same shape as `gauge`. */
  counter(name: string, help: string, read: () => number | readonly MetricSample[]): () => void;
  /** Every registered family, in registration order (families of one name merged). */
  collect(): MetricFamily[];
  /** `collect()` in the Prometheus text format, ending with a newline. */
  render(): string;
}

const NAME_RE = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_RE = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Content type of `render()`'s text (Prometheus text format 0.0.4). */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const escapeHelp = (s: string) => s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
const escapeLabel = (s: string) => s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');

/** A sample value as Prometheus writes it (`NaN`, `+Inf`, `-Inf` spelled out). */
function formatMetricValue(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Number.POSITIVE_INFINITY) return "+Inf";
  if (v === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(v);
}

/** The families in the text exposition format. */
export function renderPrometheus(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) {
      const labels = s.labels ? Object.entries(s.labels) : [];
      const text = labels.length ? `{${labels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}` : "";
      lines.push(`${f.name}${text} ${formatMetricValue(s.value)}`);
    }
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}

function checkFamily(f: MetricFamily): void {
  if (!NAME_RE.test(f.name)) throw new Error(`metric name ${JSON.stringify(f.name)} is not a Prometheus name`);
  if (f.type === "counter" && !f.name.endsWith("_total")) throw new Error(`counter ${f.name} must end in _total`);
  for (const s of f.samples)
    for (const k of Object.keys(s.labels ?? {})) if (!LABEL_RE.test(k)) throw new Error(`label ${k} of ${f.name} is not a Prometheus label name`);
}

/**
 * An empty registry.
 * @example const r = createMetricsRegistry(); r.gauge("up", "1 while serving.", () => 1); r.render(); // "# HELP up ...\n# TYPE up gauge\nup 1\n"
 */
export function createMetricsRegistry(): MetricsRegistry {
  const collectors = new Set<MetricCollector>();
  const single = (type: MetricType) => (name: string, help: string, read: () => number | readonly MetricSample[]) => {
    checkFamily({ name, help, type, samples: [] });
    return registry.register(() => {
      const v = read();
      return [{ name, help, type, samples: typeof v === "number" ? [{ value: v }] : v }];
    });
  };
  const registry: MetricsRegistry = {
    register(collector) {
      collectors.add(collector);
      return () => void collectors.delete(collector);
    },
    gauge: single("gauge"),
    counter: single("counter"),
    collect() {
      const byName = new Map<string, MetricFamily & { samples: MetricSample[] }>();
      for (const c of collectors) {
        let families: readonly MetricFamily[];
        try {
          families = c();
        } catch {
          continue; // a failing collector leaves its families out; the scrape still answers
        }
        for (const f of families) {
          try {
            checkFamily(f);
          } catch {
            continue; // an ill-named family is left out rather than failing the scrape
          }
          const had = byName.get(f.name);
          if (had) had.samples.push(...f.samples);
          else byName.set(f.name, { ...f, samples: [...f.samples] });
        }
      }
      return [...byName.values()];
    },
    render() {
      return renderPrometheus(registry.collect());
    },
  };
  return registry;
}
