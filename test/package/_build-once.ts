// Global setup of the integration layer: starts the package build (tsup, then the library's
// per-module build) and the library's pack and install into an empty project (_build-and-pack.mjs)
// once, in the background, as the run begins, so the package tests find it finished instead of
// building inside a test's time limit. The tests wait for the status file it writes (waitForBuild).
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

export interface PackageBuild {
  /** Where tsup writes the build (inside the repo, so its imports resolve from node_modules). */
  outDir: string;
  /** Written when the build ends: `{ code, log }`. */
  statusFile: string;
  /** The packed library: `stage/` (the package folder), the tarball, `consumer/` (an empty project
   * that installed it) and `pack.json` (scripts/pack-library.mjs `packAndInstall`'s figures). */
  packDir: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    packageBuild: PackageBuild;
  }
}

export default function startPackageBuild(project: TestProject): () => void {
  const root = join(__dirname, "..", "..");
  const outDir = join(root, ".vitest", "package-build");
  const statusFile = join(root, ".vitest", "package-build.status.json");
  // Outside the repository: the consumer resolves only what it installed.
  const packDir = join(tmpdir(), `optionscope-package-${process.pid}`);
  rmSync(outDir, { recursive: true, force: true });
  rmSync(statusFile, { force: true });
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  mkdirSync(packDir, { recursive: true });
  const child = spawn(process.execPath, [join(__dirname, "_build-and-pack.mjs"), outDir, packDir], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.on("error", (e) => writeFileSync(statusFile, JSON.stringify({ code: -1, log: String(e) })));
  child.on("exit", (code, signal) => writeFileSync(statusFile, JSON.stringify({ code: code ?? signal, log })));
  project.provide("packageBuild", { outDir, statusFile, packDir });
  return () => {
    if (child.exitCode === null) child.kill();
    rmSync(outDir, { recursive: true, force: true });
    rmSync(statusFile, { force: true });
    rmSync(packDir, { recursive: true, force: true });
  };
}
