/**
 * Generic page iterators, keyed on the route's query (spec "/v1/dark-pool/trades" rules 2-4 and the
 * screener's `offset`/`limit`): cursor paging follows `meta.nextCursor` until a page is empty or
 * no cursor comes back; offset paging advances `offset` by the rows received and stops on a page
 * shorter than `limit` (or `meta.hasMore: false`). A route with both pages by offset when the
 * caller asks for an offset or a non-time `sort` (rule 3), else by cursor.
 */
import type { OperationSpec } from "./operation-spec";

type Page = { data: unknown; meta: unknown };
type Request = Record<string, unknown>;

/** How a call to a paged route pages. */
export function pagingModeOf(paging: OperationSpec["paging"], request: Request): "cursor" | "offset" | null {
  if (paging === "cursor+offset") {
    const ranked = request.sort !== undefined && request.sort !== "time";
    return request.offset !== undefined || ranked ? "offset" : "cursor";
  }
  return paging;
}

/** The rows of a page: `data` when it is a list, else `data.rows`, else its first list-valued field. */
export function rowsOf(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (!data || typeof data !== "object") return [];
  const record = data as Record<string, unknown>;
  if (Array.isArray(record.rows)) return record.rows;
  for (const value of Object.values(record)) if (Array.isArray(value)) return value;
  return [];
}

const field = (o: unknown, name: string): unknown => (o && typeof o === "object" ? (o as Record<string, unknown>)[name] : undefined);

/**
 * Yield every page of a paged call.
 * @example for await (const page of pages(fetchPage, "cursor", { tickers: "SPY" })) use(page.data);
 */
export async function* pages<P extends Page>(fetchPage: (request: Request) => Promise<P>, paging: OperationSpec["paging"], request: Request): AsyncIterableIterator<P> {
  const mode = pagingModeOf(paging, request);
  let current: Request = { ...request };
  for (;;) {
    const page = await fetchPage(current);
    yield page;
    const rows = rowsOf(page.data);
    if (rows.length === 0 || mode === null) return;
    if (mode === "cursor") {
      const next = field(page.meta, "nextCursor") ?? field(page.data, "nextCursor") ?? field(page.meta, "next_cursor");
      if (typeof next !== "string" || next === "" || next === current.cursor) return;
      current = { ...current, cursor: next };
    } else {
      const limit = Number(current.limit ?? field(page.meta, "limit") ?? field(page.data, "limit") ?? NaN);
      if (field(page.meta, "hasMore") === false || (Number.isFinite(limit) && rows.length < limit)) return;
      current = { ...current, offset: Number(current.offset ?? 0) + rows.length };
    }
  }
}
