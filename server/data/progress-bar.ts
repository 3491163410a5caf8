/**
 * A one-line progress bar for loading data files, drawn on a TTY stream (stderr by default).
 */
import type { LoadProgress } from "./load-file-market";

const WIDTH = 24;

function mb(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/**
 * A progress callback that redraws one line of `stream`, or a no-op when it is not a TTY.
 * @example
 * await loadFileMarket(dir, { onProgress: progressBar(process.stderr) });
 */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): (p: LoadProgress) => void {
  if (!stream.isTTY) return () => {};
  return (p) => {
    const frac = p.bytesTotal > 0 ? Math.min(1, p.bytesRead / p.bytesTotal) : 1;
    const filled = Math.round(frac * WIDTH);
    const bar = `${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}`;
    const line = `[${bar}] ${(frac * 100).toFixed(0).padStart(3)}% ${p.file} ${mb(p.bytesRead)}/${mb(p.bytesTotal)} ${p.lines} lines`;
    stream.write(`\r${line}\x1b[K`);
    if (p.done && p.fileIndex === p.fileCount - 1) stream.write("\n");
  };
}
