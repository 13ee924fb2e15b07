/** A small flowing-text writer over pdf-lib: wrapped paragraphs, headings, page breaks, footers. */
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb } from 'pdf-lib';

export const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;

/** Keeps only what the standard fonts' WinAnsi encoding can draw (Latin-1 and a few more). */
export function printable(text: string): string {
  return text.replace(/[^\u0020-\u007E\u00A0-\u00FF\u2013\u2014\u2018\u2019\u201C\u201D\u2022\u20AC]/g, '?');
}

export async function newDocument(title: string, subject: string, at: Date): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(title);
  doc.setSubject(subject);
  doc.setAuthor('Land Register (emulated)');
  doc.setCreator('titlegraph register emulator');
  doc.setProducer('titlegraph register emulator (pdf-lib)');
  doc.setCreationDate(at);
  doc.setModificationDate(at);
  return doc;
}

/** Deterministic bytes: classic cross-reference table, no object streams. */
export async function saveDocument(doc: PDFDocument): Promise<Uint8Array> {
  return doc.save({ useObjectStreams: false });
}

export class TextWriter {
  private page!: PDFPage;
  private y = 0;
  readonly pages: PDFPage[] = [];

  private constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.newPage();
  }

  static async create(doc: PDFDocument): Promise<TextWriter> {
    return new TextWriter(doc, await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold));
  }

  private newPage() {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    this.y = A4[1] - MARGIN;
  }

  private ensure(height: number) {
    if (this.y - height < MARGIN + 20) this.newPage();
  }

  private wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    for (const para of printable(text).split('\n')) {
      let line = '';
      for (const word of para.split(/\s+/).filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(candidate, size) <= width || !line) line = candidate;
        else {
          lines.push(line);
          line = word;
        }
      }
      lines.push(line);
    }
    return lines;
  }

  text(text: string, opts: { size?: number; bold?: boolean; indent?: number; gap?: number; grey?: boolean } = {}) {
    const size = opts.size ?? 9.5;
    const font = opts.bold ? this.bold : this.regular;
    const indent = opts.indent ?? 0;
    const lineHeight = size * 1.35;
    for (const line of this.wrap(text, font, size, A4[0] - 2 * MARGIN - indent)) {
      this.ensure(lineHeight);
      this.y -= lineHeight;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: opts.grey ? rgb(0.35, 0.35, 0.35) : rgb(0, 0, 0) });
    }
    this.y -= opts.gap ?? 2;
  }

  heading(text: string, level: 1 | 2 = 2) {
    this.ensure(level === 1 ? 60 : 40);
    this.y -= level === 1 ? 10 : 8;
    this.text(text, { size: level === 1 ? 15 : 11.5, bold: true, gap: 4 });
    if (level === 2) {
      this.page.drawLine({
        start: { x: MARGIN, y: this.y + 2 },
        end: { x: A4[0] - MARGIN, y: this.y + 2 },
        thickness: 0.6,
        color: rgb(0.2, 0.3, 0.5),
      });
      this.y -= 4;
    }
  }

  /** `Page n of m` and a running header on every page. */
  finish(runningHeader: string) {
    const total = this.pages.length;
    this.pages.forEach((p, i) => {
      p.drawText(printable(runningHeader), { x: MARGIN, y: 28, size: 7.5, font: this.regular, color: rgb(0.4, 0.4, 0.4) });
      const label = `Page ${i + 1} of ${total}`;
      p.drawText(label, {
        x: A4[0] - MARGIN - this.regular.widthOfTextAtSize(label, 7.5),
        y: 28,
        size: 7.5,
        font: this.regular,
        color: rgb(0.4, 0.4, 0.4),
      });
    });
  }
}
