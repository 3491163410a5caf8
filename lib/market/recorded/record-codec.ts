/**
 * Records (option prints, off-exchange prints, minute bars with their spot) as Parquet columns
 * and back, keys in the record type's own order so a replayed record serialises byte for byte as
 * the recorded one did. Pure. @see docs/data.md#store-of-record
 */

/** How one field is stored: text, a double, a nullable double, or a list of strings (joined by `|`). */
type FieldKind = "string" | "double" | "double?" | "strings";

/** A record layout: field names in the record's key order, and each one's kind. */
export type RecordLayout = readonly (readonly [string, FieldKind])[];

/** `OptionPrintSchema`'s keys, in order (lib/market/prints/schemas.ts). */
export const OPTION_PRINT_LAYOUT: RecordLayout = [
  ["id", "string"],
  ["tsMs", "double"],
  ["tsNs", "string"],
  ["symbol", "string"],
  ["root", "string"],
  ["underlying", "string"],
  ["expiry", "string"],
  ["strike", "double"],
  ["right", "string"],
  ["price", "double"],
  ["size", "double"],
  ["exchange", "string"],
  ["nbboBid", "double"],
  ["nbboAsk", "double"],
  ["conditions", "strings"],
  ["underlyingPrice", "double"],
  ["iv", "double?"],
];

/** `OffExchangePrintSchema`'s keys, in order. */
export const OFF_EXCHANGE_LAYOUT: RecordLayout = [
  ["id", "string"],
  ["tsMs", "double"],
  ["tsNs", "string"],
  ["ticker", "string"],
  ["price", "double"],
  ["size", "double"],
  ["venue", "string"],
];

/**
 * One recorded minute of a symbol: the boundary `t`, the spot there, and the bar that ended there
 * (`o..uv` null when the market had none).
 */
export interface MinuteRow {
  t: number;
  spot: number | null;
  o: number | null;
  h: number | null;
  l: number | null;
  c: number | null;
  v: number | null;
  bv: number | null;
  sv: number | null;
  uv: number | null;
}

export const MINUTE_LAYOUT: RecordLayout = [
  ["t", "double"],
  ["spot", "double?"],
  ["o", "double?"],
  ["h", "double?"],
  ["l", "double?"],
  ["c", "double?"],
  ["v", "double?"],
  ["bv", "double?"],
  ["sv", "double?"],
  ["uv", "double?"],
];

/** One column as hyparquet-writer takes it. */
export interface RecordColumn {
  name: string;
  data: (string | number | null)[];
  type: "STRING" | "DOUBLE";
  nullable: boolean;
}

/** The records as one column per field. */
export function recordsToColumns(records: readonly object[], layout: RecordLayout): RecordColumn[] {
  return layout.map(([name, kind]) => {
    const data = records.map((r) => {
      const v = (r as Record<string, unknown>)[name];
      if (kind === "strings") return (v as string[]).join("|");
      if (kind === "double?") return v === null || v === undefined ? null : (v as number);
      return v as string | number;
    });
    return { name, data, type: kind === "string" || kind === "strings" ? "STRING" : "DOUBLE", nullable: kind === "double?" };
  });
}

/** The records back from their columns (absent columns read as null). */
export function columnsToRecords<T>(columns: Record<string, ArrayLike<unknown> | undefined>, layout: RecordLayout, n: number): T[] {
  const out: T[] = new Array(n);
  const cols = layout.map(([name, kind]) => ({ name, kind, data: columns[name] }));
  for (let i = 0; i < n; i++) {
    const r: Record<string, unknown> = {};
    for (const { name, kind, data } of cols) {
      const v = data ? data[i] : null;
      if (kind === "strings") r[name] = typeof v === "string" && v !== "" ? v.split("|") : [];
      else if (kind === "double") r[name] = Number(v);
      else if (kind === "double?") r[name] = v === null || v === undefined ? null : Number(v);
      else r[name] = v;
    }
    out[i] = r as T;
  }
  return out;
}
