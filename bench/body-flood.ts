// Issue 13 item 2: chunked uploads without Content-Length to the OAuth endpoints. Before the fix,
// 12 parallel 450 MB uploads to /mcp/oauth/register took the server to 7.2 GB RSS. The server
// now stops reading at the 16 KiB limit and answers 413, so its RSS must stay flat.
//
//   npx tsx bench/body-flood.ts [--uploads 12] [--mb 450]
//
// The server runs in a child process (`startServer` as `optionscope serve` runs it, data dir in a
// temp folder) and reports its RSS over IPC every 50 ms; this process sends the uploads over raw
// sockets, honouring backpressure, and stops each one when its answer arrives.
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** Peak server RSS growth allowed during the flood, MB. */
export const BODY_FLOOD_TARGET_MB = 64;

async function serveChild(dataDir: string): Promise<void> {
  const { resolveServeConfig } = await import("../server/config");
  const { startServer } = await import("../server/serve");
  const config = resolveServeConfig(["--port", "0", "--hostname", "127.0.0.1", "--seed", "42", "--data-dir", dataDir], {});
  const running = await startServer(config, { log: () => {}, stderr: () => {} });
  process.send!({ port: running.listening.port, rss: process.memoryUsage().rss });
  setInterval(() => process.send!({ rss: process.memoryUsage().rss }), 50).unref();
  process.on("message", () => void running.shutdown(1000).then(() => process.exit(0)));
}

/** One chunked upload of `bytes`; resolves with the status and how much was sent before it. */
function upload(port: number, bytes: number): Promise<{ status: number; sentBytes: number }> {
  return new Promise((resolve) => {
    const frame = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, 0x61), Buffer.from("\r\n")]);
    let sent = 0;
    let answered = false;
    let text = "";
    const socket = connect(port, "127.0.0.1", () => {
      socket.write("POST /mcp/oauth/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
      const pump = () => {
        while (!answered && sent < bytes) {
          sent += 0x10000;
          if (!socket.write(frame)) return void socket.once("drain", pump);
        }
        if (!answered) socket.write("0\r\n\r\n");
      };
      pump();
    });
    const done = () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), sentBytes: sent });
    socket.on("data", (d) => {
      answered = true;
      text += d.toString("latin1");
    });
    socket.on("close", done);
    socket.on("error", () => {});
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { uploads: { type: "string", default: "12" }, mb: { type: "string", default: "450" } } });
  const uploads = Number(values.uploads);
  const bytes = Number(values.mb) * 1024 * 1024;
  const dataDir = mkdtempSync(join(tmpdir(), "optionscope-body-flood-"));
  const child = fork(fileURLToPath(import.meta.url), ["--child", dataDir], { execArgv: ["--import", "tsx"] });
  let peakRss = 0;
  const ready = new Promise<{ port: number; rss: number }>((resolve) =>
    child.on("message", (m: { port?: number; rss: number }) => {
      peakRss = Math.max(peakRss, m.rss);
      if (m.port) resolve(m as { port: number; rss: number });
    }),
  );
  const { port, rss: baseRss } = await ready;
  await new Promise((r) => setTimeout(r, 300));
  const startMs = performance.now();
  const results = await Promise.all(Array.from({ length: uploads }, () => upload(port, bytes)));
  const elapsedMs = performance.now() - startMs;
  await new Promise((r) => setTimeout(r, 300));
  child.send("stop");
  await new Promise((r) => child.once("exit", r));
  rmSync(dataDir, { recursive: true, force: true });

  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  const growthMb = (peakRss - baseRss) / 1024 / 1024;
  const statuses = [...new Set(results.map((r) => r.status))].join(",");
  const maxSent = Math.max(...results.map((r) => r.sentBytes));
  console.log(`${uploads} parallel chunked uploads of ${values.mb} MB to /mcp/oauth/register in ${elapsedMs.toFixed(0)} ms`);
  console.log(`  answers: ${statuses}; most sent before an answer: ${mb(maxSent)} MB of ${values.mb} MB`);
  console.log(`  server RSS: ${mb(baseRss)} MB before, ${mb(peakRss)} MB peak (+${growthMb.toFixed(1)} MB)`);
  const ok = statuses === "413" && growthMb <= BODY_FLOOD_TARGET_MB;
  console.log(`${ok ? "PASS" : "FAIL"} body flood: every answer 413, server RSS growth <= ${BODY_FLOOD_TARGET_MB} MB (+${growthMb.toFixed(1)} MB)`);
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[2] === "--child") void serveChild(process.argv[3]!);
else void main();
