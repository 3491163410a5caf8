// Building the console's DOM: every value is written as text (never as HTML from data).

/** An element with `text` (when given) as its text and `cls` as its class. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: unknown, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** A table row: a node cell is placed as is, anything else as text. */
export function row(cells: readonly (string | Node)[]): HTMLTableRowElement {
  const tr = el("tr");
  for (const c of cells) {
    const td = el("td");
    if (c instanceof Node) td.appendChild(c);
    else td.textContent = c;
    tr.appendChild(td);
  }
  return tr;
}

/** A number with thousands separators. */
export const fmt = (n: number | string): string => Number(n).toLocaleString("en-US");

/** An ISO instant to the minute, in UTC; "never" when there is none. */
export const when = (iso: string | null): string => (iso ? `${iso.replace("T", " ").slice(0, 16)} UTC` : "never");
