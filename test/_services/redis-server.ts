// Starts Debian's redis-server for a test file, on loopback, on a free port, with no persistence
// and its own temporary directory (installed by scripts/ensure-services.sh).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RedisProcess {
  url: string;
  port: number;
  /** Stop it (SIGTERM) and remove its directory. */
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Start redis-server and resolve once it accepts connections. */
export async function startRedis(port?: number): Promise<RedisProcess> {
  const p = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "optionscope-redis-"));
  const child: ChildProcess = spawn(
    process.env.REDIS_SERVER ?? "redis-server",
    ["--port", String(p), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--protected-mode", "yes"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out.slice(-500)}`)), 10_000);
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`redis-server could not be run (scripts/ensure-services.sh installs it): ${e.message}`));
    });
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
