import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const agg = new Map(); let total = 0;
for (const n of p.nodes) { const t = (dt.get(n.id) ?? 0) / 1000; const f = n.callFrame; if (f.functionName === '(idle)') continue; total += t;
  let k = f.url;
  if (!k) k = '(native) ' + f.functionName; else if (k.includes('node_modules/')) { const m = k.split('node_modules/').pop().split('/'); k = m[0].startsWith('@') ? m[0] + '/' + m[1] : m[0]; }
  else if (k.includes('/src/')) k = 'src/' + k.split('/src/')[1].split('/')[0]; else if (k.startsWith('node:')) k = k.split('/')[0] + (k.includes('internal') ? ':' + k.split('/')[1] : '');
  agg.set(k, (agg.get(k) ?? 0) + t); }
console.log('total', total.toFixed(0));
[...agg].sort((a, b) => b[1] - a[1]).slice(0, 35).forEach(([k, v]) => console.log(v.toFixed(0).padStart(6), (100 * v / total).toFixed(1).padStart(5) + '%', k));
