// Debian's PostgreSQL for the test files (installed by scripts/ensure-services.sh; nothing
// system-wide is started): one cluster per test worker, `initdb`ed in a temporary directory on first
// use and run on loopback on a free port, and a fresh database on it per `startPostgres()` (CREATE
// DATABASE from template0 takes milliseconds; initdb takes 1-3 s of CPU). The integration layer's
// files share one module graph per worker (`isolate: false`, docs/architecture.md#test-layers) and
// run one at a time in it, so the cluster outlives a file and only one file uses it at a time:
// stopping, crashing or freezing it (what the outage tests do) touches no other file's database.
// A file that leaves it stopped or frozen (a failed test) gets it back running for the next file.
// PostgreSQL refuses to run as root, so under root the cluster belongs to the `postgres` system
// user (or $PG_TEST_USER) and its processes run as that user.
// Missing binaries fail the test with a message saying how to install them: never a skip.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./redis-server";

export interface PostgresProcess {
  /** `postgres://` URL of this file's own database (trust auth on loopback). */
  url: string;
  /** The worker's cluster's port (the same for every file the worker runs). */
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
  /**
   * Drop this file's database, with the server back up if a test left it stopped or frozen. The
   * cluster stays for the worker's next file; it is shut down and removed when the worker exits.
   */
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

/** The worker's running cluster: what `PostgresProcess` controls, for every database on it. */
interface Cluster {
  bin: string;
  port: number;
  start(): Promise<void>;
  halt(): Promise<void>;
  crash(signal?: "SIGQUIT" | "SIGKILL"): Promise<void>;
  freeze(): void;
  thaw(): void;
  /** Up and answering (started again, thawed) whatever the last file left it in. */
  ensureUp(): Promise<void>;
  /** Runs one statement through psql on the `postgres` database. */
  psql(statement: string): void;
}

let cluster: Promise<Cluster> | null = null;
let databases = 0;

/** A fresh database on the worker's cluster (initdb and start on first use); resolves once it accepts connections. */
export async function startPostgres(): Promise<PostgresProcess> {
  if (!cluster) {
    const created = createCluster();
    cluster = created;
    created.catch(() => {
      if (cluster === created) cluster = null;
    });
  }
  const c = await cluster;
  await c.ensureUp();
  const name = `t${process.pid}_${++databases}`;
  c.psql(`CREATE DATABASE ${name} TEMPLATE template0`);
  return {
    url: `postgres://optionscope@127.0.0.1:${c.port}/${name}`,
    port: c.port,
    pause: c.halt,
    crash: c.crash,
    freeze: c.freeze,
    thaw: c.thaw,
    start: c.start,
    stop: async () => {
      await c.ensureUp();
      // FORCE ends the connections the file's stores may still hold.
      c.psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** initdb a cluster and start it, with a watchdog that removes it once this worker exits. */
async function createCluster(): Promise<Cluster> {
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
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout || init.error?.message}`);
  }
  removeOnExit(dir, dataDir);

  let child: ChildProcess | null = null;
  let frozen = false;
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
    frozen = signal === "SIGSTOP";
  };

  const running = () => child !== null && child.exitCode === null && child.signalCode === null;
  await start();
  return {
    bin,
    port,
    start,
    halt,
    crash,
    freeze: () => signalAll("SIGSTOP"),
    thaw: () => signalAll("SIGCONT"),
    ensureUp: async () => {
      if (frozen) signalAll("SIGCONT");
      if (!running()) await start();
    },
    psql: (statement) => {
      const r = spawnSync(join(bin, "psql"), ["-h", "127.0.0.1", "-p", String(port), "-U", "optionscope", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", statement], {
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(`${statement} failed: ${r.stderr || r.error?.message}`);
    },
  };
}

/**
 * Shuts the cluster down and removes its directory once this process is gone, however it ends
 * (vitest stops a worker with SIGTERM and SIGKILL, which run no exit handler): a detached shell
 * waits for end-of-file on a pipe only this process holds open, then resumes a frozen server,
 * stops it at once (SIGQUIT, the backends with it) and removes the directory.
 */
function removeOnExit(dir: string, dataDir: string): void {
  const script = [
    "cat >/dev/null",
    `pid=$(head -n 1 '${dataDir}/postmaster.pid' 2>/dev/null)`,
    'if [ -n "$pid" ]; then pkill -CONT -P "$pid"; kill -CONT "$pid"; kill -QUIT "$pid"; i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; fi',
    `rm -rf '${dir}'`,
  ].join("; ");
  const watchdog = spawn("sh", ["-c", script], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
  watchdog.unref();
  (watchdog.stdin as unknown as { unref(): void }).unref();
}
