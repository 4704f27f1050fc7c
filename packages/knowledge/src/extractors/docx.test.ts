import {
  Document,
  HeadingLevel,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { describe, expect, it } from 'vitest';
import { extractDocument } from './extract';

const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });

async function buildDocx(): Promise<Uint8Array> {
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Discharge summary', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [new TextRun('Patient is '), new TextRun({ text: 'stable', bold: true })],
          }),
          new Paragraph({ text: 'Medication', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Aspirin daily', bullet: { level: 0 } }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Drug'), cell('Dose')] }),
              new TableRow({ children: [cell('Aspirin'), cell('75 mg')] }),
            ],
          }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

describe('extractDocument: DOCX', () => {
  it('turns a Word document built by a library into Markdown with headings, emphasis and tables', async () => {
    const result = await extractDocument(await buildDocx(), {
      mimeType: 'application/octet-stream',
    });
    expect(result.mimeType).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(result.title).toBe('Discharge summary');
    expect(result.markdown).toContain('# Discharge summary');
    expect(result.markdown).toContain('Patient is **stable**');
    expect(result.markdown).toContain('## Medication');
    expect(result.markdown).toMatch(/^- Aspirin daily$/m);
    expect(result.markdown).toContain('| Drug | Dose |\n| --- | --- |\n| Aspirin | 75 mg |');
  });
});
