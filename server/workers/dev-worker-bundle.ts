// A worker thread's TypeScript entry bundled for a checkout run from source (tests, `npm start`):
// about 0.7 s of CPU to start instead of about 3 s through tsx (source-bundle.mjs). Built in the
// background, never on the event loop (a synchronous build held a loaded server's loop for
// seconds); until a current build exists, workers load through tsx.
import { buildBundle, currentBundle, SOURCE_BUNDLE_CACHE } from "./source-bundle.mjs";

/** Entries whose build is under way in this process (one build each at a time). */
const building = new Set<string>();

/**
 * The path of `entry` (an absolute .ts path) bundled as one .mjs file whose packages stay imports,
 * when a build made from its current inputs is on disk; else null, and a build starts in the
 * background (esbuild's own process: the event loop never waits for it) for the next caller. The
 * caller loads the entry through tsx meanwhile.
 */
export function devWorkerBundle(entry: string, cacheDir = SOURCE_BUNDLE_CACHE): string | null {
  const current = currentBundle(entry, cacheDir);
  if (current) return current;
  const key = `${cacheDir}\0${entry}`;
  if (!building.has(key)) {
    building.add(key);
    void buildBundle(entry, cacheDir).finally(() => building.delete(key));
  }
  return null;
}
