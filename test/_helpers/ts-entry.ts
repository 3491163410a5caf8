// Arguments for `node` that run a TypeScript file in a child process: its esbuild bundle when one
// can be made (about 1 s of CPU to start), else through tsx (3-5 s: every module resolved and
// compiled through tsx's loader thread). Child processes are most of what the CLI, crash and
// multi-process tests cost (docs/architecture.md#test-layers).
import { ensureBundle } from "../../server/workers/source-bundle.mjs";

export async function tsEntryArgs(file: string): Promise<string[]> {
  const bundle = await ensureBundle(file);
  return bundle ? [bundle] : ["--import", "tsx", file];
}
