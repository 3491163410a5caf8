// Issue 17, the heatmap page's script: the package serves the file `npm run build` wrote
// (scripts/build-page-scripts.ts) without esbuild; a checkout builds once and reuses the build
// while its inputs are unchanged; /heatmap/app.js is content-addressed, gzip-able and revalidated
// by ETag; the page's one inline script (the boot script) is allowed by its CSP hash.
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { buildPageScript } from "../../../scripts/build-page-scripts";
import { HEATMAP_BOOT_JS } from "../../../server/web/heatmap/boot-script";
import { cachedBrowserBundle, loadBrowserAsset, servedAsset } from "../../../server/web/bundle";
import { HEATMAP_SCRIPT } from "../../../server/web/page-scripts";
import { makeHarness } from "../_harness";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "heatmap-bundle-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the heatmap bundle", () => {
  it("npm run build's file is what the packaged server serves, with no esbuild needed", async () => {
    const out = tempDir();
    const { file, bytes } = await buildPageScript(HEATMAP_SCRIPT, out);
    expect(file).toBe(join(out, HEATMAP_SCRIPT.prebuilt));
    const js = readFileSync(file, "utf8");
    expect(bytes).toBe(Buffer.byteLength(js));
    expect(js).toContain("__heatmapPrefetch"); // the served page's entry, not the static one
    // An entry that does not exist: any attempt to build instead of reading the file would fail.
    const asset = await loadBrowserAsset(file, join(out, "no-such-entry.ts"), tempDir());
    expect(asset.origin).toBe("prebuilt");
    expect(asset.js).toBe(js);
    expect(asset.hash).toBe(createHash("sha256").update(js).digest("hex").slice(0, 16));
    expect(gunzipSync(await asset.gzip()).toString("utf8")).toBe(js);
  }, 60_000);

  it("a checkout's build is cached on disk while none of its input files changes", async () => {
    const dir = tempDir();
    const cache = join(dir, "cache");
    const entry = join(dir, "entry.ts");
    writeFileSync(entry, 'document.title = "one";\n');
    const first = await cachedBrowserBundle(entry, cache);
    expect(first).toContain('"one"');
    // Tamper with the cached text: a cache hit returns it as is, proving no rebuild happened.
    const [cacheFile] = readdirSync(cache);
    const cached = JSON.parse(readFileSync(join(cache, cacheFile), "utf8"));
    writeFileSync(join(cache, cacheFile), JSON.stringify({ ...cached, js: "/* from the cache */" }));
    expect(await cachedBrowserBundle(entry, cache)).toBe("/* from the cache */");
    // An input changes (size differs): built again.
    writeFileSync(entry, 'document.title = "second";\n');
    expect(await cachedBrowserBundle(entry, cache)).toContain('"second"');
  }, 60_000);
});

describe("/heatmap and /heatmap/app.js", () => {
  const h = makeHarness({ credits: 10 });

  it("names the script by content hash; serves it gzip-encoded, immutable, and 304 on its ETag", async () => {
    const asset = await servedAsset(HEATMAP_SCRIPT);
    const page = await h.app.request("/heatmap?symbol=SPY");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<script src="/heatmap/app.js?v=${asset.hash}"></script>`);

    const gz = await h.app.request(`/heatmap/app.js?v=${asset.hash}`, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(gz.status).toBe(200);
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(gz.headers.get("vary")).toBe("Accept-Encoding");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString("utf8")).toBe(asset.js);

    // Not versioned (or an old version): revalidated every time.
    const plain = await h.app.request("/heatmap/app.js?v=0000", { headers: { "Accept-Encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("cache-control")).toBe("no-cache");
    expect(await plain.text()).toBe(asset.js);
    const etag = plain.headers.get("etag")!;
    const again = await h.app.request("/heatmap/app.js", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  }, 60_000);

  it("allows exactly its one inline script by hash; the JSON config block is not executed", async () => {
    const res = await h.app.request("/heatmap?symbol=QQQ");
    const csp = res.headers.get("content-security-policy")!;
    const html = await res.text();
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toEqual([HEATMAP_BOOT_JS]);
    const hash = createHash("sha256").update(inline[0]).digest("base64");
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src"))!;
    expect(scriptSrc.trim().split(/\s+/).sort()).toEqual(["script-src", "'self'", "'wasm-unsafe-eval'", `'sha256-${hash}'`].sort());
  });
});
