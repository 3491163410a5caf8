/**
 * Bounded top-k selection: the first `k` items of a list in `cmp` order, as a stable full sort
 * would give them (equal items keep their input order), in O(n log k) time and O(k) memory.
 * The screeners keep 100 rows out of ~60,000 contracts: sorting all of them was most of the cost.
 * @see docs/methodology.md#flow-top-k-selection
 */

/**
 * The indices `0..n-1` of the `k` first items in `cmp` order (ties by index), among those `keep`
 * accepts: `[...Array(n).keys()].filter(keep).sort(cmp).slice(0, k)` with a stable sort.
 * @example topKIndices(4, 2, (i, j) => xs[i] - xs[j]) // the indices of the two smallest xs
 */
export function topKIndices(n: number, k: number, cmp: (i: number, j: number) => number, keep?: (i: number) => boolean): number[] {
  if (k <= 0 || n <= 0) return [];
  // A max-heap on (cmp, index): the root is the worst kept item, the one a better candidate replaces.
  const heap = new Int32Array(Math.min(k, n));
  let size = 0;
  const worse = (i: number, j: number) => {
    const c = cmp(i, j);
    return c > 0 || (!(c < 0) && i > j); // a NaN result counts as equal, as Array.prototype.sort reads it
  };
  const siftUp = (at: number) => {
    const x = heap[at];
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!worse(x, heap[parent])) break;
      heap[at] = heap[parent];
      at = parent;
    }
    heap[at] = x;
  };
  const siftDown = (at: number) => {
    const x = heap[at];
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && worse(heap[child + 1], heap[child])) child++;
      if (!worse(heap[child], x)) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = x;
  };
  for (let i = 0; i < n; i++) {
    if (keep && !keep(i)) continue;
    if (size < heap.length) {
      heap[size++] = i;
      siftUp(size - 1);
    } else if (worse(heap[0], i)) {
      heap[0] = i;
      siftDown(0);
    }
  }
  const kept = Array.from(heap.subarray(0, size));
  kept.sort((i, j) => (worse(i, j) ? 1 : worse(j, i) ? -1 : 0));
  return kept;
}

/**
 * The `k` first items of `items` in `cmp` order (ties by position in `items`), among those `keep`
 * accepts. Equal to `items.filter(keep).sort(cmp).slice(0, k)` (a stable sort).
 * @example topK([5, 1, 4, 2], 2, (a, b) => a - b) // [1, 2]
 */
export function topK<T>(items: readonly T[], k: number, cmp: (a: T, b: T) => number, keep?: (item: T) => boolean): T[] {
  const indices = topKIndices(items.length, k, (i, j) => cmp(items[i], items[j]), keep && ((i) => keep(items[i])));
  return indices.map((i) => items[i]);
}
