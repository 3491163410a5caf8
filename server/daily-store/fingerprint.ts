// The fingerprint a stored row is keyed by: which market produced it (the simulator's seed, or the
// content of a `--data` folder) and the version of the formulas of its kind. A row whose
// fingerprint differs from the running server's is stale: it is recomputed, never served.
// See docs/architecture.md#persisted-daily-store.
import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { KIND_VERSIONS, type DailyKind } from "./kinds";

/** Where the market's data comes from: what the filler's worker rebuilds the market from. */
export type MarketSource = { kind: "simulated"; seed?: string | number } | { kind: "files"; dir: string };

/** Every file under `dir` with its size and modification time, sorted (a changed file changes it). */
function folderListing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const s = statSync(p);
        out.push(`${relative(dir, p)}:${s.size}:${Math.floor(s.mtimeMs)}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * The identity of a market source: the seed of the simulator, or a digest of the data folder's
 * file names, sizes and modification times.
 * @example marketIdentity({ kind: "simulated", seed: 42 }) // "simulated:42"
 */
export function marketIdentity(source: MarketSource): string {
  if (source.kind === "simulated") return `simulated:${source.seed ?? ""}`;
  return `files:${createHash("sha256").update(folderListing(source.dir).join("\n")).digest("hex").slice(0, 32)}`;
}

/** The fingerprint of `kind`'s rows for a market identity: 16 hex digits. */
export function kindFingerprint(identity: string, kind: DailyKind): string {
  return createHash("sha256").update(`${identity}|${kind}@${KIND_VERSIONS[kind]}`).digest("hex").slice(0, 16);
}
