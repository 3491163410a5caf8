/**
 * Where the recorder's encoding, durable writes and compaction run: one worker thread
 * (write-worker.ts) at the in-process worker threads' priority `COMPUTE_NICE`, so the thread that records (the
 * server's event loop under `serve --feed`) only reads the market, routes the work and awaits it
 * (docs/data.md#recorder). When the worker cannot start, or dies, the same tasks run in the
 * calling thread with the same result (as the compute pool falls back, docs/architecture.md#worker-pools).
 */
import { COMPUTE_NICE } from "../daily-store/priority";
import { spawnSiblingWorker } from "../spawn-sibling-worker";
import { createWorkerPool, WorkerPoolUnavailable, type WorkerPool, type WorkerPoolStats } from "../workers/worker-pool";
import { runWriteTask, type WriteTask } from "./write-task";

/** The recorder's writer. */
export interface StoreWriter {
  /** Runs `task` (in the worker when there is one); resolves once its bytes are durable. */
  run<T>(task: WriteTask): Promise<T>;
  /** Whether tasks run in a worker thread (false: in this one). */
  readonly inWorker: boolean;
  stats(): WorkerPoolStats | null;
  /** Closes the journals it holds open and stops the worker. */
  close(): Promise<void>;
}

/**
 * A writer over one worker thread (`worker: false`: in this thread, as when no worker can start).
 * @example const w = createStoreWriter(); await w.run({ kind: "board", root, board }); await w.close();
 */
export function createStoreWriter(options: { worker?: boolean } = {}): StoreWriter {
  let pool: WorkerPool<WriteTask, unknown> | null =
    options.worker === false
      ? null
      : createWorkerPool<WriteTask, unknown>({
          name: "recording",
          // One thread: a partition's journal has one appender, and tasks run in the order sent.
          size: 1,
          pipelineDepth: 1,
          spawn: () => spawnSiblingWorker(import.meta.url, { source: "./write-worker.ts", built: "./recording-worker.js" }, null, { nice: COMPUTE_NICE }),
        });
  const inline = <T>(task: WriteTask) => runWriteTask(task) as Promise<T>;
  return {
    async run<T>(task: WriteTask): Promise<T> {
      if (!pool) return inline<T>(task);
      // A board's columns may be getters (the simulator's lazy open interest and volume): copied
      // into plain fields here, so the message carries values.
      const sent: WriteTask = task.kind === "board" ? { ...task, board: { ...task.board } } : task;
      try {
        return (await pool.run(sent)) as T;
      } catch (error) {
        if (!(error instanceof WorkerPoolUnavailable)) throw error;
        // The worker is gone (its journals' descriptors with it): this thread from now on. A task
        // it had taken is written again, which is safe (files are replaced whole, a journal minute
        // written twice counts once).
        pool = null;
        return inline<T>(task);
      }
    },
    get inWorker() {
      return pool !== null;
    },
    stats: () => pool?.stats() ?? null,
    async close() {
      if (pool) {
        await pool.run({ kind: "close-journals", paths: null }).catch(() => {});
        await pool.close();
        pool = null;
      }
      await runWriteTask({ kind: "close-journals", paths: null });
    },
  };
}
