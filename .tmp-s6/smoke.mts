import { startStreamServer } from "../test/streams/_server";
const s = await startStreamServer({ speed: 60 });
const res = await fetch(`${s.url}/v1/stream?symbols=SPY,AAPL`, { headers: { Authorization: `Bearer ${s.key}` } });
console.log(res.status, Object.fromEntries(res.headers));
const reader = res.body!.getReader();
const dec = new TextDecoder();
const t0 = Date.now();
let text = "";
while (Date.now() - t0 < 2500) {
  const { value, done } = await reader.read();
  if (done) break;
  text += dec.decode(value);
}
console.log(text.split("\n").map(l => l.slice(0, 160)).join("\n"));
reader.cancel();
await new Promise(r => setTimeout(r, 100));
console.log(s.hub().stats());
console.log(s.accounts.ledger(s.accountId).map(e => [e.kind, e.delta, e.requestId]));
await s.close();
