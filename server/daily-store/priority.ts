// The CPU priorities of the server's workers, below the event loop. On Linux a nice value belongs
// to a thread: a worker thread lowers itself only, and a worker process lowers every thread it
// has (server/workers/host-port.ts). See docs/operations.md#daily-store-locks.
import { setPriority } from "node:os";

/**
 * The nice value of worker threads inside the server's process (the recorder's writer), and of
 * the boards worker process, which a live heatmap or stream waits on. A thread goes no lower: a thread shares locks no priority can skip with the event loop (the process's memory
 * map, malloc's arenas, libuv's work queue), and at nice 19 a thread preempted while holding one
 * stayed off a core for up to a second on a busy machine while the loop slept waiting for it
 * (bench/README.md, "loop stalls were lock waits"). At nice 5 it gets a core back within
 * milliseconds and still yields to the loop.
 */
export const COMPUTE_NICE = 5;

/**
 * The cold request pools' worker processes (compute, statistics): nice 10. A process shares
 * no lock with the loop, so it can sit lower than a thread: CPU time goes by weight (1024 at nice
 * 0, 110 at 10, 335 at 5), and at nice 5 three busy workers on the loop's core held it to half
 * of that core on a quiet machine (bench/README.md, "worker processes"). A cold request's
 * computation still gets every core nothing else wants.
 */
export const WORKER_PROCESS_NICE = 10;

/**
 * The background fill's nice value: 19, the lowest. Its process shares no lock with the loop,
 * and below the request pools' workers it yields to them too: what a user waits for runs first.
 */
export const FILL_NICE = 19;

/** Lower the calling thread to `FILL_NICE`; the value set, or null when the OS refuses. */
export function lowerFillPriority(): number | null {
  try {
    setPriority(FILL_NICE);
    return FILL_NICE;
  } catch {
    return null;
  }
}
