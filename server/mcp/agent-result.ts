/**
 * The agent toolset's result budget: lists cut to `limit` rows (default 20), rows reduced to
 * `fields`, numbers rounded to their documented precision, and the answer kept within 8 KB unless
 * the caller asked for more rows. Rules: docs/methodology.md#agent-toolset-results.
 */
import type { BriefOutcome } from "./intelligence-tools";

/** Rows per list when the caller gives no `limit`. */
export const AGENT_DEFAULT_LIMIT = 20;
/** Largest `limit` an agent tool accepts. */
export const AGENT_MAX_LIMIT = 500;
/** Budget of a whole result (`structuredContent` JSON, UTF-8 bytes) without an explicit `limit`. */
export const AGENT_RESULT_BYTES = 8 * 1024;
/** Budget of a whole result when the caller set `limit`. */
const AGENT_RESULT_BYTES_ASKED = 64 * 1024;
/** Bytes kept back from the budget for the summary's note and `meta`. */
const META_RESERVE_BYTES = 1024;

/**
 * A number rounded to at most 6 significant digits, never to fewer than 2 decimals; integers
 * are kept as they are. docs/methodology.md#agent-toolset-results
 * @example roundForAgent(0.183456789) // 0.183457
 * @example roundForAgent(6053.499999) // 6053.5
 * @example roundForAgent(1234567890.1234) // 1234567890.12
 */
export function roundForAgent(x: number): number {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x;
  const magnitude = Math.ceil(Math.log10(Math.abs(x)));
  const decimals = Math.min(12, Math.max(2, 6 - magnitude));
  const f = 10 ** decimals;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
}

type Json = unknown;

function roundAll(value: Json): Json {
  if (typeof value === "number") return roundForAgent(value);
  if (Array.isArray(value)) return value.map(roundAll);
  if (value !== null && typeof value === "object") {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) out[k] = roundAll(v);
    return out;
  }
  return value;
}

/** Where a list sits in the answer: its parent and key, and its dotted path for `meta.truncated`. */
interface ListSite {
  parent: Record<string, Json> | Json[];
  key: string | number;
  path: string;
  total: number;
}

function listsOf(value: Json, path: string, parent: ListSite["parent"] | null, key: string | number, out: ListSite[]): void {
  if (Array.isArray(value)) {
    if (parent) out.push({ parent, key, path, total: value.length });
    for (let i = 0; i < value.length; i++) listsOf(value[i], `${path}[${i}]`, value, i, out);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) listsOf(v, path ? `${path}.${k}` : k, value as Record<string, Json>, k, out);
  }
}

const bytes = (v: Json) => Buffer.byteLength(JSON.stringify(v) ?? "", "utf8");

const isRow = (v: Json): v is Record<string, Json> => v !== null && typeof v === "object" && !Array.isArray(v);

export interface AgentShape {
  /** Rows per list (default `AGENT_DEFAULT_LIMIT`). */
  limit?: number;
  /** True when the caller set `limit`: the budget is then `AGENT_RESULT_BYTES_ASKED`, not 8 KB. */
  asked?: boolean;
  /** Row fields to keep (rows of every list of objects); absent: all. */
  fields?: readonly string[];
}

/**
 * Apply the budget to a tool's answer: copy, cut lists to the limit, keep the asked fields,
 * round, then halve the largest list until the answer fits; every cut list is named in
 * `truncated` and the summary says how to get more.
 * @example shapeForAgent({ summary, data: { rows: bigList }, asOf, partial: false }, {}).truncated
 *   // [{ path: "rows", returned: 20, total: 500 }]
 */
export function shapeForAgent(out: BriefOutcome, shape: AgentShape): BriefOutcome {
  const limit = shape.limit ?? AGENT_DEFAULT_LIMIT;
  const budget = (shape.asked ? AGENT_RESULT_BYTES_ASKED : AGENT_RESULT_BYTES) - META_RESERVE_BYTES - Buffer.byteLength(out.summary, "utf8");
  const root = { data: roundAll(out.data) } as Record<string, Json>;
  const sites: ListSite[] = [];
  listsOf(root.data, "", root, "data", sites);
  // The root itself when the answer is a list.
  if (sites.length > 0 && sites[0].parent === root) sites[0].path = "data";
  const cut = new Map<string, ListSite & { returned: number }>();
  for (const site of sites) {
    let list = (site.parent as Record<string | number, Json>)[site.key] as Json[];
    if (shape.fields && list.some(isRow)) {
      const keep = new Set(shape.fields);
      list = list.map((row) => (isRow(row) ? Object.fromEntries(Object.entries(row).filter(([k]) => keep.has(k))) : row));
    }
    if (list.length > limit) {
      list = list.slice(0, limit);
      cut.set(site.path, { ...site, returned: limit });
    }
    (site.parent as Record<string | number, Json>)[site.key] = list;
  }
  // Over budget: halve the largest list still holding more than one row (a cut nested list is
  // found again through its parent's new array, so paths are re-read each round).
  for (let round = 0; round < 64 && bytes(root.data) > budget; round++) {
    const now: ListSite[] = [];
    listsOf(root.data, "", root, "data", now);
    if (now.length > 0 && now[0].parent === root) now[0].path = "data";
    let largest: ListSite | null = null;
    let largestBytes = 0;
    for (const site of now) {
      const list = (site.parent as Record<string | number, Json>)[site.key] as Json[];
      if (list.length < 2) continue;
      const b = bytes(list);
      if (b > largestBytes) {
        largest = site;
        largestBytes = b;
      }
    }
    if (!largest) break;
    const list = (largest.parent as Record<string | number, Json>)[largest.key] as Json[];
    const keep = Math.max(1, Math.floor(list.length / 2));
    (largest.parent as Record<string | number, Json>)[largest.key] = list.slice(0, keep);
    const before = cut.get(largest.path);
    cut.set(largest.path, { ...largest, total: before?.total ?? list.length, returned: keep });
  }
  // Lists at the same place in every row (`symbols[0].strikes`, `symbols[1].strikes`) are reported once, by their largest figures.
  const byPlace = new Map<string, { path: string; returned: number; total: number }>();
  for (const c of cut.values()) {
    const path = c.path.replace(/\[\d+\]/g, "[]");
    const seen = byPlace.get(path);
    byPlace.set(path, { path, returned: Math.max(seen?.returned ?? 0, c.returned), total: Math.max(seen?.total ?? 0, c.total) });
  }
  const truncated = [...byPlace.values()];
  if (truncated.length === 0) return { ...out, data: root.data };
  const lists = truncated
    .slice(0, 3)
    .map((t) => `${t.path} ${t.returned} of ${t.total}`)
    .join(", ");
  const more = truncated.length > 3 ? ` and ${truncated.length - 3} more` : "";
  const note = ` Lists cut to fit (${lists}${more}); pass limit (up to ${AGENT_MAX_LIMIT}) or fields for more.`;
  return { ...out, summary: `${out.summary}${note}`, data: root.data, truncated };
}
