import { fork } from 'node:child_process';
import { createServer, get } from 'node:http';
import { request, stream, Agent } from 'undici';
import { pipeline } from 'node:stream';
const role = process.argv[2];
const SIZE = 50 * 1024 * 1024;
if (role === 'source') {
  const buf = Buffer.alloc(SIZE, 7);
  const s = createServer((req, res) => { res.writeHead(200, { 'content-length': String(SIZE), 'content-type': 'application/pdf' }); res.end(buf); });
  s.listen(0, '127.0.0.1', () => process.send!({ port: (s.address() as any).port }));
} else if (role === 'relay') {
  const src = `http://127.0.0.1:${process.argv[3]}/`;
  const agent = new Agent({ connections: 8 });
  const s = createServer(async (req, res) => {
    const mode = req.url!.slice(1);
    if (mode === 'nodehttp') {
      get(src, (up) => { res.writeHead(200, { 'content-length': up.headers['content-length']! }); up.pipe(res); });
    } else if (mode === 'undicipipe') {
      const up = await request(src, { dispatcher: agent });
      res.writeHead(200, { 'content-length': up.headers['content-length'] as string });
      up.body.pipe(res);
    } else if (mode === 'undicistream') {
      await stream(src, { dispatcher: agent, opaque: res }, ({ headers, opaque }) => { (opaque as any).writeHead(200, { 'content-length': headers['content-length'] }); return opaque as any; });
    } else if (mode.startsWith('cpu')) {
      res.end(JSON.stringify(process.cpuUsage()));
    }
  });
  s.listen(0, '127.0.0.1', () => process.send!({ port: (s.address() as any).port }));
} else {
  const start = (r: string, extra: string[] = []) => new Promise<{ port: number; child: any }>((resolve) => {
    const child = fork(new URL(import.meta.url).pathname, [r, ...extra], { execArgv: ['--import', 'tsx'] });
    child.once('message', (m: any) => resolve({ port: m.port, child }));
  });
  const source = await start('source');
  const relay = await start('relay', [String(source.port)]);
  const dl = async (url: string) => {
    const t = performance.now();
    const res = await request(url);
    let n = 0; for await (const c of res.body) n += (c as Buffer).length;
    if (n !== SIZE) throw new Error('size ' + n);
    return SIZE / 1048576 / ((performance.now() - t) / 1000);
  };
  const cpu = async () => { const r = await request(`http://127.0.0.1:${relay.port}/cpu`); const j: any = await r.body.json(); return (j.user + j.system) / 1000; };
  const modes = ['direct', 'nodehttp', 'undicipipe', 'undicistream'];
  const res: Record<string, number[]> = {}; const cpus: Record<string, number[]> = {};
  for (let round = 0; round < 8; round++) for (const m of modes) {
    const c0 = await cpu();
    const mb = await dl(m === 'direct' ? `http://127.0.0.1:${source.port}/` : `http://127.0.0.1:${relay.port}/${m}`);
    const c1 = await cpu();
    (res[m] ??= []).push(Math.round(mb)); (cpus[m] ??= []).push(Math.round(c1 - c0));
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
  for (const m of modes) console.log(m.padEnd(14), 'MB/s median', med(res[m]), 'ratio', (med(res[m])! / med(res.direct)!).toFixed(2), 'relay cpu ms', med(cpus[m]), res[m].join(','));
  source.child.kill(); relay.child.kill();
}
