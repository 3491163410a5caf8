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
function parseResponse(text: string): Pick<RawExchange, "status" | "headers" | "body"> {
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
  const body = Number.isFinite(length) ? rest.slice(0, length) : /chunked/i.test(headers["transfer-encoding"] ?? "") ? dechunk(rest) : rest;
  return { status: Number(/^HTTP\/1\.\d (\d{3})/.exec(statusLine!)?.[1] ?? 0), headers, body };
}

/** The payload of a chunked body (as much as has arrived). */
function dechunk(raw: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", at);
    if (lineEnd < 0) return out;
    const size = parseInt(raw.slice(at, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) return out;
    out += raw.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * Write `payload` (or, for a function, whatever it writes) to `port` and collect the answer until
 * the server closes the connection or `waitMs` passes.
 */
export function rawExchange(
  port: number,
  payload: string | Buffer | ((write: (chunk: string | Buffer) => boolean, done: () => boolean) => Promise<void> | void),
  waitMs = 5_000,
  onSocket?: (socket: import("node:net").Socket) => void,
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let firstByteMs: number | null = null;
    let closedMs: number | null = null;
    let finished = false;
    const started = performance.now();
    const socket = connect(port, "127.0.0.1");
    onSocket?.(socket);
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      resolve({ text, ...parseResponse(text), firstByteMs, closedMs });
    };
    const timer = setTimeout(finish, waitMs);
    let graceSet = false;
    socket.on("data", (d) => {
      if (firstByteMs === null) firstByteMs = performance.now() - started;
      chunks.push(d);
      // A complete Content-Length response: wait to see whether the server hangs up, then stop. A server
      // that hangs up does so at once; 2 s covers a loaded machine's scheduling (CI ran past 500 ms).
      const got = parseResponse(Buffer.concat(chunks).toString("latin1"));
      const complete =
        got.headers["content-length"] !== undefined
          ? got.body.length >= Number(got.headers["content-length"])
          : /\r\n0\r\n\r\n$/.test(Buffer.concat(chunks).toString("latin1"));
      if (!graceSet && got.status > 0 && complete) {
        graceSet = true;
        setTimeout(finish, 2_000);
      }
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
        void payload(
          (chunk) => (finished || socket.destroyed ? false : socket.write(chunk)),
          () => finished || socket.destroyed,
        );
      } else {
        socket.write(payload);
      }
    });
  });
}

/** Resolve on the first of `events`, removing the other listeners. */
function settled(socket: import("node:net").Socket, events: string[]): Promise<void> {
  return new Promise((resolve) => {
    const on = () => {
      for (const e of events) socket.off(e, on);
      resolve();
    };
    for (const e of events) socket.on(e, on);
  });
}

export interface UploadResult extends RawExchange {
  /** Body bytes written before the first response byte arrived. */
  sentBeforeAnswer: number;
  /** Whether every body byte was written before the answer (the server read it all). */
  sentAll: boolean;
}

/**
 * Send `head` (request line and headers, ending in a blank line) then a chunked body of
 * `totalBytes` in `chunkBytes` pieces, honouring backpressure, and stop sending as soon as the
 * first response byte arrives. A server that stops reading at its limit answers long before the
 * body is done; one that buffers the whole body answers only after it.
 */
export async function chunkedUpload(port: number, head: string, totalBytes: number, chunkBytes = 64 * 1024, waitMs = 30_000): Promise<UploadResult> {
  let sent = 0;
  let answered = false;
  let sentBeforeAnswer = -1;
  const chunk = Buffer.alloc(chunkBytes, 0x61);
  const frame = Buffer.concat([Buffer.from(`${chunkBytes.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
  let socketRef: import("node:net").Socket | null = null;
  const exchange = rawExchange(
    port,
    async (write, done) => {
      write(head);
      while (sent < totalBytes && !done() && !answered) {
        const ok = write(frame);
        sent += chunkBytes;
        if (!ok && socketRef) await settled(socketRef, ["drain", "data", "close"]);
      }
      if (!answered && !done()) write("0\r\n\r\n");
    },
    waitMs,
    (socket) => {
      socketRef = socket;
      socket.once("data", () => {
        answered = true;
        sentBeforeAnswer = sent;
      });
    },
  );
  const r = await exchange;
  return { ...r, sentBeforeAnswer: sentBeforeAnswer < 0 ? sent : sentBeforeAnswer, sentAll: sentBeforeAnswer < 0 || sentBeforeAnswer >= totalBytes };
}
