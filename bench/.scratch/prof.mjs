import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const self = new Map(); const byId = new Map(p.nodes.map(n => [n.id, n]));
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
let total = 0;
for (const n of p.nodes) { const t = (dt.get(n.id) ?? 0) / 1000; if (n.callFrame.functionName === '(idle)') continue; total += t;
  const url = n.callFrame.url.replace(/.*node_modules\//, '').replace(/.*\/work\/main\//, '');
  const k = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + t); }
const filter = process.argv[3];
console.log('total busy ms', total.toFixed(0));
[...self].filter(([k]) => !filter || k.includes(filter)).sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[4] ?? 40)).forEach(([k, v]) => console.log(v.toFixed(1).padStart(8), (100 * v / total).toFixed(1).padStart(5) + '%', k));
