import PDFDocument from 'pdfkit';

/** Renders a US-letter PDF drawn by `draw` into a buffer (receipts, letters of medical necessity). */
export function renderPdf(
  opts: { margin: number; title: string; author: string },
  draw: (doc: PDFKit.PDFDocument) => void,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'LETTER',
      margin: opts.margin,
      info: { Title: opts.title, Author: opts.author },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}
