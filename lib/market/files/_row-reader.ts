/**
 * Typed access to one CSV row, throwing a `DataFileError` that names file, line and column.
 */
import type * as z from "zod";
import { parseIsoInstantNs } from "../prints/ts-ns";
import { DataFileError } from "./data-file-error";
import type { ValueRange } from "./value-ranges";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export type NumberKind = "number" | "positive" | "nonNegative" | "integer" | "positiveInteger" | "nonNegativeInteger";

const EXPECTED: Record<NumberKind, string> = {
  number: "a number",
  positive: "a positive number",
  nonNegative: "a non-negative number",
  integer: "an integer",
  positiveInteger: "a positive integer",
  nonNegativeInteger: "a non-negative integer",
};

export function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

export class RowReader {
  constructor(
    readonly file: string,
    readonly line: number,
    private readonly fields: string[],
    private readonly columns: ReadonlyMap<string, number>,
  ) {}

  fail(field: string | null, reason: string): never {
    throw new DataFileError("bad_value", this.file, this.line, field, reason);
  }

  /** The raw (trimmed) text of a column; "" when the column is absent. */
  raw(col: string): string {
    const i = this.columns.get(col);
    return i === undefined ? "" : this.fields[i].trim();
  }

  has(col: string): boolean {
    return this.raw(col) !== "";
  }

  str(col: string): string {
    const v = this.raw(col);
    if (v === "") this.fail(col, "required value is empty");
    return v;
  }

  /** A number of `kind`, within `range` when given (docs/data.md#value-ranges). */
  num(col: string, kind: NumberKind = "number", range?: ValueRange): number {
    const v = this.str(col);
    const x = NUMBER.test(v) ? Number(v) : Number.NaN;
    const ok =
      Number.isFinite(x) &&
      (kind === "number" ||
        (kind === "positive" && x > 0) ||
        (kind === "nonNegative" && x >= 0) ||
        (kind === "integer" && Number.isInteger(x)) ||
        (kind === "positiveInteger" && Number.isInteger(x) && x > 0) ||
        (kind === "nonNegativeInteger" && Number.isInteger(x) && x >= 0));
    if (!ok) this.fail(col, `expected ${EXPECTED[kind]}, got ${quote(v)}`);
    if (range && (x > range.max || (range.min !== undefined && x < range.min))) {
      const bounds = range.min !== undefined ? `from ${range.min} to ${range.max}` : `at most ${range.max}`;
      this.fail(col, `expected ${EXPECTED[kind]} ${bounds}, got ${quote(v)}`);
    }
    return x;
  }

  optNum(col: string, fallback: number, kind: NumberKind = "number", range?: ValueRange): number {
    return this.has(col) ? this.num(col, kind, range) : fallback;
  }

  date(col: string): string {
    const v = this.str(col);
    const m = DATE.exec(v);
    const ok =
      m !== null &&
      (() => {
        const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
        return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
      })();
    if (!ok) this.fail(col, `expected a date YYYY-MM-DD, got ${quote(v)}`);
    return v;
  }

  instant(col: string): { tsMs: number; tsNs: string } {
    const v = this.str(col);
    const t = parseIsoInstantNs(v);
    if (!t) this.fail(col, `expected an ISO-8601 instant with a zone (e.g. 2024-03-15T13:30:00Z), got ${quote(v)}`);
    return t;
  }

  oneOf<T extends string>(col: string, values: readonly T[], aliases: Readonly<Record<string, T>> = {}): T {
    const v = this.str(col);
    return this.member(col, v, values, aliases);
  }

  /** A space-separated list of members (at least one). */
  listOf<T extends string>(col: string, values: readonly T[], aliases: Readonly<Record<string, T>> = {}): T[] {
    const parts = this.str(col).split(/\s+/);
    return parts.map((p) => this.member(col, p, values, aliases));
  }

  private member<T extends string>(col: string, v: string, values: readonly T[], aliases: Readonly<Record<string, T>>): T {
    const up = v.toUpperCase();
    const hit = values.find((x) => x === v || x === up) ?? aliases[up] ?? aliases[v];
    if (hit === undefined) {
      const shown = values.length <= 8 ? values.join(", ") : `${values.slice(0, 8).join(", ")}, ...`;
      this.fail(col, `expected one of ${shown}, got ${quote(v)}`);
    }
    return hit;
  }

  /**
   * Validates the assembled record; the first issue is reported against the column named by
   * `columnOf[path[0]]` (or the path itself).
   */
  check<S extends z.ZodType>(schema: S, record: unknown, columnOf: Readonly<Record<string, string>> = {}): z.output<S> {
    const r = schema.safeParse(record);
    if (r.success) return r.data;
    const issue = r.error.issues[0];
    const key = issue.path.length > 0 ? String(issue.path[0]) : null;
    this.fail(key === null ? null : (columnOf[key] ?? key), issue.message);
  }
}
