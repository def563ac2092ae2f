/**
 * Renders a US-letter PDF drawn by `draw` into a buffer (receipts, letters of medical necessity).
 * PDFKit (and the font tables it loads) is loaded with the first document, not with every process.
 */
export async function renderPdf(
  opts: { margin: number; title: string; author: string },
  draw: (doc: PDFKit.PDFDocument) => void,
): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
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
