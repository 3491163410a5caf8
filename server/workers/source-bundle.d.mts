// Types of source-bundle.mjs (plain JavaScript so that bin/optionscope.mjs loads it without tsx).
export declare const SOURCE_BUNDLE_CACHE: string;
export declare function bundlePaths(entry: string, cacheDir?: string): { out: string; stampsFile: string };
export declare function currentBundle(entry: string, cacheDir?: string): string | null;
export declare function buildBundle(entry: string, cacheDir?: string): Promise<string | null>;
export declare function ensureBundle(entry: string, cacheDir?: string): Promise<string | null>;
