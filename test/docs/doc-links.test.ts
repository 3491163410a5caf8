import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Code cites the docs instead of restating formulas (STYLE 9); every cited anchor must exist.
const root = join(__dirname, "..", "..");
const SOURCE_DIRS = ["lib", "server", "assembly", "bench", "scripts", "docs"];
const SOURCE_FILES = ["README.md"];

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs|js|md)$/.test(name) ? [path] : [];
  });
}

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of markdown.split("\n")) {
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of markdown.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

describe("documentation links cited by the code", () => {
  const citations: { file: string; doc: string; anchor: string }[] = [];
  const files = [...SOURCE_DIRS.flatMap((dir) => sourceFiles(join(root, dir))), ...SOURCE_FILES.map((f) => join(root, f))];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(docs\/[A-Za-z0-9_./-]+\.md)#([A-Za-z0-9_-]+)/g)) {
      citations.push({ file: relative(root, file), doc: m[1], anchor: m[2] });
    }
  }

  it("finds citations to check", () => {
    expect(citations.length).toBeGreaterThan(50);
  });

  it("cites only documents and anchors that exist", () => {
    const cache = new Map<string, Set<string> | null>();
    const broken: string[] = [];
    for (const c of citations) {
      if (!cache.has(c.doc)) {
        const path = join(root, c.doc);
        cache.set(c.doc, existsSync(path) ? anchorsOf(readFileSync(path, "utf8")) : null);
      }
      const anchors = cache.get(c.doc);
      if (!anchors) broken.push(`${c.file}: ${c.doc} does not exist`);
      else if (!anchors.has(c.anchor)) broken.push(`${c.file}: ${c.doc}#${c.anchor} has no such heading`);
    }
    expect([...new Set(broken)]).toEqual([]);
  });
});
