/**
 * The caller's "gone" signal for a route call over Node HTTP, without a WHATWG `AbortSignal`.
 * srvx builds `request.signal` on first read from an `AbortController` whose EventTarget
 * listeners cost more than the rest of a cached answer's bookkeeping (bench/README.md
 * "Scale-out: the instance's own path"). The pipeline only needs `aborted` and one or two
 * listeners, so this reads the same event srvx does: the response closing before it ended.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** What `executeRoute` needs of the caller's signal; an `AbortSignal` satisfies it. */
export interface CallerSignal {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** Node's view of the exchange, as srvx exposes it on `request.runtime.node`. */
interface NodeExchange {
  req: IncomingMessage;
  res?: ServerResponse;
}

class ResponseCloseSignal implements CallerSignal {
  #aborted = false;
  #listeners: (() => void)[] = [];

  constructor(req: IncomingMessage, res: ServerResponse) {
    // As srvx's `request.signal`: closed before the answer ended, or the request errored.
    const onClose = () => {
      if (this.#aborted || (!req.errored && res.writableEnded)) return;
      this.#aborted = true;
      for (const fn of this.#listeners.splice(0)) fn();
    };
    res.once("close", onClose);
    if (res.destroyed || req.aborted || req.errored || (req.destroyed && !req.complete)) onClose();
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  addEventListener(_type: "abort", listener: () => void): void {
    if (!this.#aborted) this.#listeners.push(listener);
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    const i = this.#listeners.indexOf(listener);
    if (i >= 0) this.#listeners.splice(i, 1);
  }
}

/** The caller's signal: read from Node's response when the request came through srvx's Node adapter. */
export function callerSignalOf(request: Request): CallerSignal {
  const node = (request as Request & { runtime?: { node?: NodeExchange } }).runtime?.node;
  return node?.res ? new ResponseCloseSignal(node.req, node.res) : request.signal;
}
