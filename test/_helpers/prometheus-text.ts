// A small parser of the Prometheus text exposition format (0.0.4) for tests: families with their
// HELP, TYPE and samples; throws on a line the format does not allow.

interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ParsedFamily {
  help: string;
  type: string;
  samples: ParsedSample[];
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const SAMPLE_RE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL_RE = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;

function parseValue(v: string): number {
  if (v === "NaN") return Number.NaN;
  if (v === "+Inf") return Number.POSITIVE_INFINITY;
  if (v === "-Inf") return Number.NEGATIVE_INFINITY;
  const n = Number(v);
  if (!Number.isFinite(n) && !/^[+-]?\d/.test(v)) throw new Error(`bad sample value ${v}`);
  return n;
}

function parseLabels(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!text) return out;
  LABEL_RE.lastIndex = 0;
  let consumed = 0;
  for (let m = LABEL_RE.exec(text); m; m = LABEL_RE.exec(text)) {
    out[m[1]] = m[2].replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
    consumed = LABEL_RE.lastIndex;
  }
  if (consumed !== text.length) throw new Error(`bad labels {${text}}`);
  return out;
}

/** Families by name; a sample belongs to the family whose TYPE line came before it. */
export function parsePrometheusText(text: string): Map<string, ParsedFamily> {
  const families = new Map<string, ParsedFamily>();
  const family = (name: string) => {
    let f = families.get(name);
    if (!f) {
      f = { help: "", type: "untyped", samples: [] };
      families.set(name, f);
    }
    return f;
  };
  if (text !== "" && !text.endsWith("\n")) throw new Error("text must end with a newline");
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const f = family(meta[2]);
      if (meta[1] === "HELP") f.help = meta[3];
      else {
        if (!["counter", "gauge", "histogram", "summary", "untyped"].includes(meta[3])) throw new Error(`bad type ${meta[3]}`);
        if (f.samples.length > 0) throw new Error(`TYPE of ${meta[2]} after its samples`);
        f.type = meta[3];
      }
      continue;
    }
    if (line.startsWith("#")) continue;
    const m = SAMPLE_RE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const base = m[1].replace(/_(sum|count|bucket)$/, "");
    const owner = families.get(m[1]) ?? families.get(base) ?? family(m[1]);
    owner.samples.push({ name: m[1], labels: parseLabels(m[2]), value: parseValue(m[3]) });
  }
  return families;
}
