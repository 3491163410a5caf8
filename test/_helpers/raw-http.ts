// A raw TCP client for requests fetch() and node:http refuse to send (no Host, CONNECT, bad
// framing, 100 KB URLs, endless chunked bodies), so tests see exactly what the server answers.
import { connect } from "node:net";

export interface RawExchange {
  /** Everything received, as latin1 text. */
  text: string;
  /** Status of the first response, or 0 when nothing came back. */
  status: number;
  /** Headers of the first response, lower-case names. */
  headers: Record<string, string>;
  /** Body of the first response (Content-Length framed). */
  body: string;
  /** ms from the first byte written to the first byte received (null: nothing received). */
  firstByteMs: number | null;
  /** ms from the first byte written until the server closed or reset the connection (null: still open at `waitMs`). */
  closedMs: number | null;
}

/** Parse the first HTTP response out of raw text. */
export function parseResponse(text: string): Pick<RawExchange, "status" | "headers" | "body"> {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return { status: Number(/^HTTP\/1\.\d (\d{3})/.exec(text)?.[1] ?? 0), headers: {}, body: "" };
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = Number(headers["content-length"] ?? NaN);
  const rest = text.slice(end + 4);
  return { status: Number(/^HTTP\/1\.\d (\d{3})/.exec(statusLine!)?.[1] ?? 0), headers, body: Number.isFinite(length) ? rest.slice(0, length) : rest };
}

/**
 * Write `payload` (or, for a function, whatever it writes) to `port` and collect the answer until
 * the server closes the connection or `waitMs` passes.
 */
export function rawExchange(
  port: number,
  payload: string | Buffer | ((write: (chunk: string | Buffer) => boolean, done: () => boolean) => Promise<void> | void),
  waitMs = 5_000,
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let firstByteMs: number | null = null;
    let closedMs: number | null = null;
    let finished = false;
    const started = performance.now();
    const socket = connect(port, "127.0.0.1");
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      resolve({ text, ...parseResponse(text), firstByteMs, closedMs });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("data", (d) => {
      if (firstByteMs === null) firstByteMs = performance.now() - started;
      chunks.push(d);
    });
    socket.on("error", () => {
      closedMs ??= performance.now() - started;
      finish();
    });
    socket.on("close", () => {
      closedMs ??= performance.now() - started;
      finish();
    });
    socket.on("connect", () => {
      if (typeof payload === "function") {
        void payload((chunk) => (finished || socket.destroyed ? false : socket.write(chunk)), () => finished || socket.destroyed);
      } else {
        socket.write(payload);
      }
    });
  });
}
