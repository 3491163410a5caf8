// Global setup of the integration layer: starts `tsup` (the package build) once, in the
// background, as the run begins, so the package tests find it finished instead of building inside
// a test's time limit. test/package/build.test.ts waits for the status file it writes.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

export interface PackageBuild {
  /** Where tsup writes the build (inside the repo, so its imports resolve from node_modules). */
  outDir: string;
  /** Written when the build ends: `{ code, log }`. */
  statusFile: string;
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
  rmSync(outDir, { recursive: true, force: true });
  rmSync(statusFile, { force: true });
  mkdirSync(outDir, { recursive: true });
  const child = spawn(process.execPath, [join(root, "node_modules/tsup/dist/cli-default.js"), "--out-dir", outDir], {
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
  project.provide("packageBuild", { outDir, statusFile });
  return () => {
    if (child.exitCode === null) child.kill();
    rmSync(outDir, { recursive: true, force: true });
    rmSync(statusFile, { force: true });
  };
}
