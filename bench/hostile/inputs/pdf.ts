// PDFs with pdf-lib: what OCR and the page renderer meet. Pages without text are rendered and
// read by OCR, so a blank page costs a render and an OCR pass, and a 5000 × 5000 pt page costs
// a 25-megapixel bitmap (+1.4 GB).
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';

/** A one-page PDF whose text layer says `lines`. */
export async function textPdf(lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  lines.forEach((line, i) => page.drawText(line, { x: 72, y: 720 - i * 18, size: 12, font }));
  return pdf.save();
}

/** `count` letter-size pages with nothing on them: every one goes to OCR. */
export async function blankPagesPdf(count: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < count; i++) pdf.addPage([612, 792]);
  return pdf.save();
}

/** One blank page of `points` × `points` (the PDF maximum is 14,400). */
export async function hugePagePdf(points: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([points, points]);
  return pdf.save();
}

/** A readable PDF that asks its viewer to run JavaScript when it opens: a reader must not. */
export async function javascriptPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(await textPdf(['NOTICE', 'Subject: open action']));
  const action = pdf.context.obj({
    Type: 'Action',
    S: 'JavaScript',
    JS: PDFString.of("app.alert('pwned'); this.submitForm('http://127.0.0.1:9/x');"),
  });
  pdf.catalog.set(PDFName.of('OpenAction'), pdf.context.register(action));
  return pdf.save();
}

/** A PDF cut off after its first `fraction` of bytes: no cross-reference table, no pages. */
export async function truncatedPdf(fraction = 0.3): Promise<Uint8Array> {
  const whole = await textPdf(['INVOICE', 'Total: 12.50']);
  return whole.subarray(0, Math.floor(whole.length * fraction));
}
