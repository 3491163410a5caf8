import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import type { PackageBuild } from "./_build-once";

/** What scripts/pack-library.mjs `packAndInstall` wrote to pack.json. */
export interface PackResult {
  stage: string;
  consumer: string;
  packed: { tarball: string; packedBytes: number; unpackedBytes: number; files: number; largestDts: { path: string; bytes: number } | null; sourceMapBytes: number };
  installed: { packages: number; nativeBuilds: string[]; bytes: number };
}

/** Waits for the global setup's build, pack and install (_build-once.ts); throws its log if it failed. */
export async function waitForPackage(): Promise<PackageBuild & { pack: PackResult }> {
  const build = inject("packageBuild");
  while (!existsSync(build.statusFile)) await new Promise((r) => setTimeout(r, 200));
  const { code, log } = JSON.parse(readFileSync(build.statusFile, "utf8"));
  if (code !== 0) throw new Error(`the package build exited with ${code}:\n${log}`);
  return { ...build, pack: JSON.parse(readFileSync(join(build.packDir, "pack.json"), "utf8")) };
}
