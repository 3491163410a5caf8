/**
 * CSV records from lines (RFC 4180 quoting: `"a,b"`, `""` for a quote, quoted line breaks),
 * fed one physical line at a time so that large files can be streamed.
 * @see docs/data.md#csv-conventions
 */

/** One logical record and the physical line it starts on (1-based). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** Thrown by the reader for malformed quoting; the caller adds the file name. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

/**
 * Splits one complete record into fields. Returns null when a quoted field is still open at the
 * end of the text (the record continues on the next line).
 * @example
 * splitCsvRecord('a,"b,c",""""'); // ["a", "b,c", '"']
 */
export function splitCsvRecord(text: string, line = 0): string[] | null {
  const out: string[] = [];
  let i = 0;
  const n = text.length;
  for (;;) {
    if (i < n && text.charCodeAt(i) === 34 /* " */) {
      let value = "";
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) return null;
        value += text.slice(i, q);
        if (text.charCodeAt(q + 1) === 34) {
          value += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      if (i < n && text.charCodeAt(i) !== 44 /* , */) {
        throw new CsvSyntaxError(line, `unexpected character after a closing quote at column ${i + 1}`);
      }
      out.push(value);
    } else {
      const c = text.indexOf(",", i);
      const end = c < 0 ? n : c;
      const value = text.slice(i, end);
      if (value.includes('"')) throw new CsvSyntaxError(line, `stray quote in an unquoted field at column ${i + 1}`);
      out.push(value);
      i = end;
    }
    if (i >= n) return out;
    i++; // skip the comma
    if (i === n) {
      out.push("");
      return out;
    }
  }
}

/**
 * Turns physical lines into records: strips a trailing CR (CRLF files), skips blank lines, joins
 * lines while a quoted field is open. Call `push` per line and `end` after the last.
 * @example
 * const reader = new CsvLineReader();
 * reader.push('a,"multi'); reader.push('line"'); // -> {line: 1, fields: ["a", "multi\nline"]}
 */
export class CsvLineReader {
  private pending: string | null = null;
  private pendingLine = 0;
  private lineNo = 0;

  /** Feeds the next physical line (without its LF); returns a completed record or null. */
  push(raw: string): CsvRecord | null {
    this.lineNo++;
    let text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (this.lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // BOM
    if (this.pending !== null) {
      const joined = `${this.pending}\n${text}`;
      const fields = splitCsvRecord(joined, this.pendingLine);
      if (fields === null) {
        this.pending = joined;
        return null;
      }
      this.pending = null;
      return { line: this.pendingLine, fields };
    }
    if (text.trim() === "") return null;
    const fields = splitCsvRecord(text, this.lineNo);
    if (fields === null) {
      this.pending = text;
      this.pendingLine = this.lineNo;
      return null;
    }
    return { line: this.lineNo, fields };
  }

  /** Ends the input; throws when a quoted field was never closed. */
  end(): void {
    if (this.pending !== null) throw new CsvSyntaxError(this.pendingLine, "quoted field is not closed before the end of the file");
  }
}
