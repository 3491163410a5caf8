/**
 * Response headers of the route pipeline as a plain map. The WHATWG `Headers` class validates
 * every name and value through WebIDL on each `set`; a keyed answer sets a dozen headers, which
 * made `Headers` the largest single cost of a cached answer after the socket writes (bench/README.md
 * "Scale-out: the instance's own path"). Our names and values are constants or numbers, so the
 * bag only lower-cases names; srvx's `FastResponse` writes its entries straight to the socket.
 */

/** What the pipeline needs of a header set; `Headers` satisfies it too. */
export interface HeaderSink extends Iterable<[string, string]> {
  set(name: string, value: string): void;
  append(name: string, value: string): void;
  get(name: string): string | null;
  has(name: string): boolean;
  delete(name: string): void;
  forEach(fn: (value: string, name: string) => void): void;
}

/** A case-insensitive header map; `append` joins with ", " as `Headers` does. */
export class HeaderBag implements HeaderSink {
  readonly #map = new Map<string, string>();

  constructor(init?: Record<string, string>) {
    if (init) for (const name in init) this.#map.set(name.toLowerCase(), init[name]!);
  }

  set(name: string, value: string): void {
    this.#map.set(name.toLowerCase(), value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const had = this.#map.get(key);
    this.#map.set(key, had === undefined ? value : `${had}, ${value}`);
  }

  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.#map.delete(name.toLowerCase());
  }

  forEach(fn: (value: string, name: string) => void): void {
    for (const [k, v] of this.#map) fn(v, k);
  }

  /** The headers as `HeadersInit` (name-value pairs): what a response is constructed with. */
  toInit(): [string, string][] {
    return [...this.#map];
  }

  entries(): IterableIterator<[string, string]> {
    return this.#map.entries();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#map.entries();
  }
}
