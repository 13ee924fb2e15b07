/**
 * Title plans as drawn PDFs (boundary polygon, north arrow, scale bar, title number), and the
 * LAN50 large plan: the drawn plan plus an incremental update holding one big stream, padded to
 * an exact byte length and produced chunk by chunk (never one giant buffer).
 */
import { StandardFonts, rgb } from 'pdf-lib';
import { newDocument, printable, saveDocument } from './pdf-writer';
import type { PlanRecord } from './seed/model';

const MM = 72 / 25.4;
const SCALES = [1250, 2500, 5000, 10000, 25000, 50000];
const BAR_METRES = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000];

export async function renderPlan(titleNumber: string, index: number, plan: PlanRecord): Promise<Uint8Array> {
  const { summary, drawing } = plan;
  const at = new Date(`${summary.lastUpdated ?? '2020-01-01'}T12:00:00Z`);
  const doc = await newDocument(`Title plan ${titleNumber} (${index + 1})`, summary.description ?? summary.type, at);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const size: [number, number] = summary.paperSize === 4 ? [841.89, 595.28] : [1190.55, 841.89];
  const page = doc.addPage(size);
  const [W, H] = size;

  // Frame, map area and title block.
  const map = { x: 30, y: 30, w: W - 260, h: H - 60 };
  page.drawRectangle({ x: 20, y: 20, width: W - 40, height: H - 40, borderColor: rgb(0, 0, 0), borderWidth: 1.2 });
  page.drawRectangle({ x: map.x, y: map.y, width: map.w, height: map.h, borderColor: rgb(0.5, 0.5, 0.5), borderWidth: 0.5 });

  // Scale: the largest nominal scale at which the boundary fits the map area.
  const xs = drawing.polygon.map((p) => p[0]);
  const ys = drawing.polygon.map((p) => p[1]);
  const spanX = Math.max(...xs) - Math.min(...xs) || 1;
  const spanY = Math.max(...ys) - Math.min(...ys) || 1;
  const fits = (n: number) => (spanX * 1000 * MM) / n <= map.w * 0.6 && (spanY * 1000 * MM) / n <= map.h * 0.6;
  const scale = SCALES.find(fits) ?? SCALES[SCALES.length - 1]!;
  const ptPerMetre = (1000 * MM) / scale;
  const cx = map.x + map.w / 2 - ((Math.max(...xs) + Math.min(...xs)) / 2) * ptPerMetre;
  const cy = map.y + map.h / 2 - ((Math.max(...ys) + Math.min(...ys)) / 2) * ptPerMetre;

  // Background grid (map tiles) every 100 m on the ground, or coarser.
  const gridMetres = BAR_METRES.find((m) => m * ptPerMetre >= 60) ?? 5000;
  for (let gx = map.x + ((cx - map.x) % (gridMetres * ptPerMetre)); gx < map.x + map.w; gx += gridMetres * ptPerMetre)
    page.drawLine({ start: { x: gx, y: map.y }, end: { x: gx, y: map.y + map.h }, thickness: 0.3, color: rgb(0.85, 0.85, 0.85) });
  for (let gy = map.y + ((cy - map.y) % (gridMetres * ptPerMetre)); gy < map.y + map.h; gy += gridMetres * ptPerMetre)
    page.drawLine({ start: { x: map.x, y: gy }, end: { x: map.x + map.w, y: gy }, thickness: 0.3, color: rgb(0.85, 0.85, 0.85) });

  // Boundary edged red (SVG coordinates: y grows downwards).
  const path = `${drawing.polygon.map(([x, y], i) => `${i ? 'L' : 'M'} ${(x * ptPerMetre).toFixed(2)} ${(-y * ptPerMetre).toFixed(2)}`).join(' ')} Z`;
  page.drawSvgPath(path, { x: cx, y: cy, color: rgb(0.95, 0.8, 0.8), borderColor: rgb(0.8, 0, 0), borderWidth: 1.6 });

  // North arrow.
  const nx = map.x + map.w - 40;
  const ny = map.y + map.h - 70;
  page.drawSvgPath('M 0 -40 L 10 0 L 0 -8 L -10 0 Z', { x: nx, y: ny, color: rgb(0, 0, 0) });
  page.drawText('N', { x: nx - 4, y: ny + 46, size: 12, font: bold });

  // Scale bar.
  const barMetres = BAR_METRES.find((m) => m * ptPerMetre >= 80) ?? 5000;
  const barLen = barMetres * ptPerMetre;
  const bx = map.x + 20;
  const by = map.y + 20;
  for (let i = 0; i < 4; i++)
    page.drawRectangle({
      x: bx + (i * barLen) / 4,
      y: by,
      width: barLen / 4,
      height: 5,
      color: i % 2 ? rgb(1, 1, 1) : rgb(0, 0, 0),
      borderColor: rgb(0, 0, 0),
      borderWidth: 0.5,
    });
  page.drawText('0', { x: bx - 2, y: by + 8, size: 7, font });
  page.drawText(`${barMetres} m`, { x: bx + barLen - 8, y: by + 8, size: 7, font });

  // Title block.
  const tx = W - 220;
  let ty = H - 40;
  const line = (text: string, sz = 9, f = font) => {
    ty -= sz * 1.25;
    page.drawText(printable(text), { x: tx, y: ty, size: sz, font: f, maxWidth: 190 });
    ty -= sz * 0.4;
  };
  line('LAND REGISTER OF SCOTLAND', 8, bold);
  line(titleNumber, 22, bold);
  ty -= 6;
  line(summary.type === 'PLAN' ? 'Title plan' : 'Supplementary plan', 11, bold);
  line(summary.description ?? '');
  line(`Plan ${index + 1}, paper size A${summary.paperSize ?? 4}`);
  line(`Scale 1:${scale}`);
  line(`Map reference ${drawing.mapReference}`);
  line(`Last updated ${summary.lastUpdated ?? '-'}`);
  ty -= 10;
  line('Subjects edged red.', 8);
  line('Crown copyright and database rights (emulated data).', 7);
  return saveDocument(doc);
}

function latin1(text: string): Uint8Array {
  return Buffer.from(text, 'latin1');
}

const PAD_CHUNK = (() => {
  const b = Buffer.alloc(64 * 1024);
  let x = 0x2545f491;
  for (let i = 0; i < b.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
})();

/**
 * `base` (a PDF with a classic xref table) plus an incremental update adding one unreferenced
 * stream object, so that the whole file is exactly `totalBytes` long (or the minimum possible).
 */
export function padPdf(base: Uint8Array, totalBytes: number): { length: number; chunks: () => AsyncIterable<Uint8Array> } {
  const tail = Buffer.from(base.subarray(Math.max(0, base.length - 2048))).toString('latin1');
  const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail)?.[1]);
  const trailer = tail.slice(tail.lastIndexOf('trailer'));
  const sizeN = Number(/\/Size (\d+)/.exec(trailer)?.[1]);
  const root = /\/Root (\d+ \d+ R)/.exec(trailer)?.[1];
  const info = /\/Info (\d+ \d+ R)/.exec(trailer)?.[1];
  if (!Number.isFinite(prev) || !Number.isFinite(sizeN) || !root) throw new Error('padPdf: base PDF has no classic trailer');
  const obj = sizeN;
  let extra = 0;
  const head = (len: number) => `\n${obj} 0 obj\n<< /Length ${len}${' '.repeat(extra)} >>\nstream\n`;
  const end = (len: number) => {
    const objOffset = base.length + 1;
    const xrefOffset = base.length + head(len).length + len + '\nendstream\nendobj\n'.length;
    return (
      `\nendstream\nendobj\nxref\n${obj} 1\n${String(objOffset).padStart(10, '0')} 00000 n \n` +
      `trailer\n<< /Size ${obj + 1} /Root ${root}${info ? ` /Info ${info}` : ''} /Prev ${prev} >>\nstartxref\n${xrefOffset}\n%%EOF\n`
    );
  };
  // Fixed point of len = total - overhead(len); a digit boundary can make it oscillate by one,
  // which a padding space in the stream dictionary absorbs.
  const total = (len: number) => base.length + head(len).length + len + end(len).length;
  let len = 0;
  for (extra = 0; extra < 4; extra++) {
    len = Math.max(0, totalBytes - total(0));
    for (let i = 0; i < 6 && total(len) !== totalBytes && len > 0; i++) len = Math.max(0, len + totalBytes - total(len));
    if (total(len) === totalBytes || len === 0) break;
  }
  if (extra === 4) extra = 0;
  const headBytes = latin1(head(len));
  const endBytes = latin1(end(len));
  const length = base.length + headBytes.length + len + endBytes.length;
  return {
    length,
    async *chunks() {
      yield base;
      yield headBytes;
      for (let left = len; left > 0; left -= PAD_CHUNK.length) yield left >= PAD_CHUNK.length ? PAD_CHUNK : PAD_CHUNK.subarray(0, left);
      yield endBytes;
    },
  };
}
