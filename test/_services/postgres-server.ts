// Starts Debian's PostgreSQL for a test file: `initdb` a cluster in a temporary directory and run
// `postgres` on loopback on a free port (installed by scripts/ensure-services.sh; nothing
// system-wide is started). PostgreSQL refuses to run as root, so under root the cluster belongs
// to the `postgres` system user (or $PG_TEST_USER) and its processes run as that user.
// Missing binaries fail the test with a message saying how to install them: never a skip.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./redis-server";

export interface PostgresProcess {
  /** `postgres://` URL of the test database (trust auth on loopback). */
  url: string;
  port: number;
  /** Stop the server (fast shutdown), keeping the cluster: `start()` brings it back on the same port. */
  pause(): Promise<void>;
  /**
   * Stop it hard, as `pg_ctl stop -m immediate` does (SIGQUIT: every backend quits at once, no
   * checkpoint; the next `start()` runs crash recovery), or with `SIGKILL` of the postmaster
   * and then of its backends. Keeps the cluster.
   */
  crash(signal?: "SIGQUIT" | "SIGKILL"): Promise<void>;
  /**
   * Freeze it (SIGSTOP to the postmaster and every backend): connections stay open and nothing
   * answers, as with a hung host or a half-open connection. `thaw()` resumes it.
   */
  freeze(): void;
  thaw(): void;
  /** Start it again after `pause()` or `crash()`. */
  start(): Promise<void>;
  /** Stop it and remove the cluster. */
  stop(): Promise<void>;
}

/** The directory holding `initdb` and `postgres` (newest Debian version first), or null. */
function postgresBinDir(): string | null {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0]!, "bin") : null;
}

/** True while process `pid` exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL `pid` unless it is gone already. */
function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // exited meanwhile
  }
}

/** uid/gid to run PostgreSQL as: ourselves, unless we are root. */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const user = process.env.PG_TEST_USER ?? "postgres";
  const r = spawnSync("id", ["-u", user], { encoding: "utf8" });
  const g = spawnSync("id", ["-g", user], { encoding: "utf8" });
  if (r.status !== 0 || g.status !== 0) throw new Error(`PostgreSQL cannot run as root and there is no "${user}" user (set PG_TEST_USER)`);
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/** initdb a cluster and start it; resolves once it accepts connections. */
export async function startPostgres(): Promise<PostgresProcess> {
  const bin = postgresBinDir();
  if (!bin) {
    throw new Error("PostgreSQL binaries not found under /usr/lib/postgresql/*/bin: run scripts/ensure-services.sh (apt-get install postgresql)");
  }
  const port = await freePort();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), "optionscope-pg-"));
  const dataDir = join(dir, "data");
  if (user) {
    chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
  }
  const ids = user ?? {};
  const init = spawnSync(join(bin, "initdb"), ["-D", dataDir, "-U", "optionscope", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"], {
    encoding: "utf8",
    ...ids,
  });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout || init.error?.message}`);

  let child: ChildProcess | null = null;
  const start = async () => {
    const proc = spawn(
      join(bin, "postgres"),
      ["-D", dataDir, "-p", String(port), "-h", "127.0.0.1", "-k", dir, "-c", "fsync=on", "-c", "max_connections=200", "-c", "shared_buffers=32MB"],
      { stdio: ["ignore", "pipe", "pipe"], ...ids },
    );
    child = proc;
    await new Promise<void>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`postgres did not start: ${out.slice(-800)}`)), 20_000);
      proc.once("error", (e) => {
        clearTimeout(timer);
        reject(new Error(`postgres could not be run: ${e.message}`));
      });
      proc.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`postgres exited (${code}): ${out.slice(-800)}`));
      });
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout!.on("data", onData);
      proc.stderr!.on("data", onData);
    });
  };
  const halt = () =>
    new Promise<void>((resolve) => {
      const proc = child;
      if (!proc || proc.exitCode !== null) return resolve();
      proc.once("exit", () => resolve());
      proc.kill("SIGINT"); // fast shutdown: connections are closed, committed work is on disk
    });

  const crash = async (signal: "SIGQUIT" | "SIGKILL" = "SIGQUIT") => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.pid === undefined) return;
    // The backends, before the postmaster goes (a SIGKILLed postmaster cannot reap them).
    const kids = spawnSync("pgrep", ["-P", String(proc.pid)], { encoding: "utf8" })
      .stdout.split("\n")
      .filter(Boolean)
      .map(Number);
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    proc.kill(signal);
    if (signal === "SIGKILL") for (const pid of kids) killQuietly(pid);
    await exited;
    // A restart needs every old backend gone (they hold the shared memory).
    for (let i = 0; i < 200 && kids.some(alive); i++) await new Promise((r) => setTimeout(r, 25));
  };

  const signalAll = (signal: "SIGSTOP" | "SIGCONT") => {
    const pid = child?.pid;
    if (pid === undefined) return;
    const kids = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .stdout.split("\n")
      .filter(Boolean)
      .map(Number);
    for (const p of [pid, ...kids]) process.kill(p, signal);
  };

  await start();
  // The database `postgres` exists after initdb; tests get their own.
  const create = spawnSync(join(bin, "psql"), ["-h", "127.0.0.1", "-p", String(port), "-U", "optionscope", "-d", "postgres", "-c", "CREATE DATABASE optionscope"], {
    encoding: "utf8",
  });
  if (create.status !== 0) throw new Error(`CREATE DATABASE failed: ${create.stderr}`);
  return {
    url: `postgres://optionscope@127.0.0.1:${port}/optionscope`,
    port,
    pause: halt,
    crash,
    freeze: () => signalAll("SIGSTOP"),
    thaw: () => signalAll("SIGCONT"),
    start,
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
