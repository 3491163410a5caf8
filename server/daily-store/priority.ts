// The CPU priority of the server's worker threads: nice 5, below the event loop. On Linux a nice
// value belongs to a thread: set from a worker it lowers that thread only, not the server's event
// loop. See docs/operations.md#daily-store-locks.
import { setPriority } from "node:os";

/**
 * The request pools' nice value (compute and statistics workers): below the event loop. A cold
 * request's computation still gets most of a contended core, but the thread that routes, charges
 * and answers every other request runs first: on 2 cores, two busy workers at the loop's priority
 * held it off a core for up to 0.8 s (docs/operations.md#daily-store).
 */
export const COMPUTE_NICE = 5;

/**
 * The background fill's nice value: the request pools' value (`COMPUTE_NICE`), not lower. The fill's threads share
 * the process with the event loop, and with it locks no priority can skip (the process's memory
 * map, malloc's arenas, libuv's work queue): at nice 19 a fill thread preempted while holding one
 * stayed off a core for up to a second on a busy machine, and the loop slept that long waiting for
 * it (bench/README.md, "loop stalls were lock waits"). At nice 5 it gets a core back within
 * milliseconds and still yields to the loop.
 */
export const FILL_NICE = 5;

/** Lower the calling thread to `FILL_NICE`; the value set, or null when the OS refuses. */
export function lowerFillPriority(): number | null {
  try {
    setPriority(FILL_NICE);
    return FILL_NICE;
  } catch {
    return null;
  }
}
