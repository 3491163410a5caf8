/**
 * Stream event ids: `<lineage>.<seq>`. A lineage is one chain of connections that resume each
 * other; `seq` counts the events written into it (1, 2, 3, ... with no holes), so a client's last
 * id says exactly what it has. See docs/api.md#stream-event-ids.
 */

/** A parsed event id. */
export interface EventId {
  lineage: string;
  seq: number;
}

const ID_RE = /^([a-z0-9]{16})\.(\d{1,15})$/;

/**
 * A new random lineage name: 16 lower-case base-36 characters (~82 bits), unguessable so that one
 * account cannot name another's lineage.
 * @example newLineageId() // "k3v9x0q2m1c8b7a5"
 */
export function newLineageId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let out = "";
  for (const b of bytes) out += (b % 36).toString(36);
  return out;
}

/** `lineage.seq`. @example formatEventId("k3v9x0q2m1c8b7a5", 12) // "k3v9x0q2m1c8b7a5.12" */
export function formatEventId(lineage: string, seq: number): string {
  return `${lineage}.${seq}`;
}

/** Parse an id sent back by a client; null for anything that is not one of ours. */
export function parseEventId(raw: string | null | undefined): EventId | null {
  if (typeof raw !== "string") return null;
  const m = ID_RE.exec(raw.trim());
  if (!m) return null;
  const seq = Number(m[2]);
  return Number.isSafeInteger(seq) && seq >= 0 ? { lineage: m[1], seq } : null;
}
