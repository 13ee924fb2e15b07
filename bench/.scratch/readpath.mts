import { createServer } from 'node:http';
import { Agent, request, type Dispatcher } from 'undici';
const body = JSON.stringify({ data: { titleNumber: 'MID15313', text: 'x'.repeat(2000) } });
const s = createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); });
await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(s.address() as any).port}/x`;
const agent = new Agent({ connections: 16 });
async function viaRequest() { const r = await request(url, { dispatcher: agent }); return JSON.parse(await r.body.text()); }
function viaDispatch(): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    agent.dispatch({ origin: new URL(url).origin, path: '/x', method: 'GET' }, {
      onConnect() {}, onError: reject, onHeaders() { return true; },
      onData(c: Buffer) { chunks.push(c); return true; },
      onComplete() { resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))); },
    } as Dispatcher.DispatchHandler);
  });
}
for (const round of [0, 1, 2]) for (const [name, fn] of [['request+text', viaRequest], ['dispatch', viaDispatch]] as const) {
  const N = 4000; const c0 = process.cpuUsage();
  for (let i = 0; i < N; i += 16) await Promise.all(Array.from({ length: 16 }, fn));
  const c = process.cpuUsage(c0);
  if (round) console.log(name.padEnd(14), 'client CPU µs/call', ((c.user + c.system) / N).toFixed(1), '(server in same process)');
}
s.close(); await agent.close();
