// Errors
export { DataFileError, isDataFileError } from "./data-file-error";
export type { DataFileErrorCode } from "./data-file-error";

// Layouts and CSV
export { FILE_LAYOUTS, FILE_KINDS, fileKindOf } from "./layouts";
export type { FileKind, FileLayout } from "./layouts";
export { splitCsvRecord, CsvLineReader } from "./csv";
export type { CsvRecord } from "./csv";

// Building and querying
export { FileMarketBuilder, DEFAULT_FILE_RATE } from "./file-market-builder";
export type { FileMarketTables, FileSink, TimeSeries } from "./file-market-builder";
export { createFileMarket } from "./file-market";
export type { FileMarket, FileMarketOptions } from "./file-market";
export { tablesFromTexts } from "./load-from-texts";
