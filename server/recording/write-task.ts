/**
 * The recorder's disk and CPU work as tasks: a board encoded to Parquet and written durably, a
 * journal line appended and fsynced, a finished session compacted and retention applied. They run
 * in the recorder's worker thread (write-worker.ts, through writer.ts) so the thread that records
 * (the server's, under `serve --feed`) only reads the market and awaits; the same functions run in
 * the recorder's own thread when no worker can start. A task resolves once its bytes are durable,
 * so the recorder's acknowledgement rule (docs/data.md#recorder) is unchanged.
 */
import type { ChainSnapshot } from "../../lib/market/market-data";
import { applyRetention, compactPartition, JournalWriter, writePendingBoard, type CompactionResult, type JournalLine } from "./store";

/** One piece of the recorder's work. */
export type WriteTask =
  | { kind: "board"; root: string; board: ChainSnapshot }
  | { kind: "journal"; path: string; line: JournalLine }
  | { kind: "close-journals"; paths: readonly string[] | null }
  | { kind: "compact"; root: string; date: string; symbol: string; retentionDays: number };

/** What a compaction task answers: the compaction and the sessions retention deleted. */
export interface CompactOutcome {
  result: CompactionResult;
  deleted: string[];
}

/** The open journals of this thread, by path (one appender per file). */
const journals = new Map<string, JournalWriter>();

function journalAt(path: string): JournalWriter {
  let j = journals.get(path);
  if (!j) {
    j = new JournalWriter(path);
    journals.set(path, j);
  }
  return j;
}

/**
 * Runs one task in this thread: a board or journal task answers the bytes written, a compaction
 * its `CompactOutcome`.
 * @example await runWriteTask({ kind: "board", root, board });
 */
export async function runWriteTask(task: WriteTask): Promise<number | CompactOutcome | null> {
  if (task.kind === "board") return writePendingBoard(task.root, task.board);
  if (task.kind === "journal") return journalAt(task.path).append(task.line);
  if (task.kind === "close-journals") {
    for (const [path, j] of journals) {
      if (task.paths && !task.paths.includes(path)) continue;
      j.close();
      journals.delete(path);
    }
    return null;
  }
  const result = await compactPartition(task.root, task.date, task.symbol);
  return { result, deleted: applyRetention(task.root, task.retentionDays, task.date) };
}
