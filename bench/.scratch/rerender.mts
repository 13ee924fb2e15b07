import { readFileSync } from 'node:fs';
import { writeReport } from '../lib/report.ts';
const r = JSON.parse(readFileSync('bench/results.json', 'utf8'));
console.log(writeReport(r, 'bench', { partial: false }));
