// The demo documents for document extraction, generated (no binary is checked in), each with its
// ground truth: an invoice (a PDF with a text layer), a lab report (a Word document with a results
// table) and a two-page insurance claim that is a scan (page images only, read by OCR). Tests,
// the page's e2e run and bench/documents all use them.
//
// Each document is written from a layout: a title, then sections of "Label: value" lines and
// tables. The truth is spelled out beside it as data, not derived from the layout, so a reader
// that loses or garbles text (PDF text layer, DOCX, OCR) scores below 1.
import type { Browser } from 'playwright-core';

export interface DemoSection {
  /** Upper-case heading; null for lines under the title. */
  heading: string | null;
  lines?: [label: string, printed: string][];
  table?: { columns: string[]; rows: string[][] };
}

export interface DemoLayout {
  title: string;
  /** Sections per page (a one-page document has one list). */
  pages: DemoSection[][];
}

export interface DemoDocument {
  name: 'invoice' | 'lab_report' | 'claim';
  fileName: string;
  mimeType: string;
  documentType: string;
  layout: DemoLayout;
  truth: Record<string, unknown>;
}

export const INVOICE: DemoDocument = {
  name: 'invoice',
  fileName: 'invoice-INV-2024-0042.pdf',
  mimeType: 'application/pdf',
  documentType: 'invoice',
  layout: {
    title: 'INVOICE',
    pages: [
      [
        {
          heading: null,
          lines: [
            ['Invoice number', 'INV-2024-0042'],
            ['Invoice date', '2024-03-14'],
            // Day first, as printed in the UK: a model cannot be sure which is the month.
            ['Due date', '13/04/2024'],
            ['Currency', 'GBP'],
          ],
        },
        {
          heading: 'VENDOR',
          lines: [
            ['Name', 'Acme Supplies Ltd'],
            ['Address', '12 Harbour Road, Leith'],
            ['VAT number', 'GB 123 4567 89'],
          ],
        },
        { heading: 'BILL TO', lines: [['Name', 'Northwind Clinic']] },
        {
          heading: 'ITEMS',
          table: {
            columns: ['Description', 'Quantity', 'Unit price', 'Amount'],
            rows: [
              ['Nitrile gloves, box of 100', '25', '12.50', '312.50'],
              ['Sterile gauze pads', '40', '3.25', '130.00'],
              ['Digital thermometer', '12', '24.00', '288.00'],
              ['Blood pressure monitor', '1', '273.25', '273.25'],
            ],
          },
        },
        {
          heading: 'TOTALS',
          lines: [
            ['Subtotal', '1,003.75'],
            ['VAT', '200.75'],
            ['Total', '1,204.50'],
          ],
        },
      ],
    ],
  },
  truth: {
    invoice_number: 'INV-2024-0042',
    invoice_date: '2024-03-14',
    due_date: '2024-04-13',
    currency: 'GBP',
    vendor: {
      name: 'Acme Supplies Ltd',
      address: '12 Harbour Road, Leith',
      vat_number: 'GB 123 4567 89',
    },
    bill_to: { name: 'Northwind Clinic' },
    items: [
      { description: 'Nitrile gloves, box of 100', quantity: 25, unit_price: 12.5, amount: 312.5 },
      { description: 'Sterile gauze pads', quantity: 40, unit_price: 3.25, amount: 130 },
      { description: 'Digital thermometer', quantity: 12, unit_price: 24, amount: 288 },
      { description: 'Blood pressure monitor', quantity: 1, unit_price: 273.25, amount: 273.25 },
    ],
    totals: { subtotal: 1003.75, vat: 200.75, total: 1204.5 },
  },
};

export const LAB_REPORT: DemoDocument = {
  name: 'lab_report',
  fileName: 'lab-report-LR-55120.docx',
  mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  documentType: 'lab_report',
  layout: {
    title: 'LAB REPORT',
    pages: [
      [
        {
          heading: null,
          lines: [
            ['Report number', 'LR-55120'],
            ['Collected on', '2024-05-02'],
            ['Reported on', '2024-05-03'],
          ],
        },
        {
          heading: 'PATIENT',
          lines: [
            ['Name', 'Jas Patel'],
            ['Date of birth', '1990-03-12'],
            ['Patient ID', 'P-20931'],
          ],
        },
        {
          heading: 'RESULTS',
          table: {
            columns: ['Test', 'Result', 'Unit', 'Reference range'],
            rows: [
              ['Haemoglobin', '13.8', 'g/dL', '12.0 to 15.5'],
              ['White cell count', '6.2', '10^9/L', '4.0 to 11.0'],
              ['Platelets', '310', '10^9/L', '150 to 400'],
              ['Fasting glucose', '5.9', 'mmol/L', '3.9 to 5.5'],
            ],
          },
        },
        {
          heading: 'LABORATORY',
          lines: [
            ['Name', 'Lothian Diagnostics'],
            ['Verified by', 'Dr Ann Lee'],
          ],
        },
      ],
    ],
  },
  truth: {
    report_number: 'LR-55120',
    collected_on: '2024-05-02',
    reported_on: '2024-05-03',
    patient: { name: 'Jas Patel', date_of_birth: '1990-03-12', patient_id: 'P-20931' },
    results: [
      { test: 'Haemoglobin', result: 13.8, unit: 'g/dL', reference_range: '12.0 to 15.5' },
      { test: 'White cell count', result: 6.2, unit: '10^9/L', reference_range: '4.0 to 11.0' },
      { test: 'Platelets', result: 310, unit: '10^9/L', reference_range: '150 to 400' },
      { test: 'Fasting glucose', result: 5.9, unit: 'mmol/L', reference_range: '3.9 to 5.5' },
    ],
    laboratory: { name: 'Lothian Diagnostics', verified_by: 'Dr Ann Lee' },
  },
};

export const CLAIM: DemoDocument = {
  name: 'claim',
  fileName: 'claim-CLM-88412-scan.pdf',
  mimeType: 'application/pdf',
  documentType: 'insurance_claim',
  layout: {
    title: 'INSURANCE CLAIM',
    pages: [
      [
        {
          heading: null,
          lines: [
            ['Claim number', 'CLM-88412'],
            ['Policy number', 'POL-2291-77'],
          ],
        },
        {
          heading: 'CLAIMANT',
          lines: [
            ['Name', 'Maria Gonzalez'],
            ['Date of birth', '1984-07-22'],
            ['Phone', '0131 555 0199'],
          ],
        },
        {
          heading: 'INCIDENT',
          lines: [
            ['Date', '2024-02-09'],
            ['Location', '4 Queen Street, Edinburgh'],
            ['Description', 'Water damage from a burst kitchen pipe'],
          ],
        },
      ],
      [
        {
          heading: 'CLAIM DETAILS',
          lines: [
            ['Amount claimed', '3,450.00'],
            ['Repair company', 'Forth Plumbing Ltd'],
          ],
        },
        {
          heading: 'DECLARATION',
          lines: [
            ['Signed by', 'Maria Gonzalez'],
            ['Signature date', '2024-02-12'],
          ],
        },
      ],
    ],
  },
  truth: {
    claim_number: 'CLM-88412',
    policy_number: 'POL-2291-77',
    claimant: { name: 'Maria Gonzalez', date_of_birth: '1984-07-22', phone: '0131 555 0199' },
    incident: {
      date: '2024-02-09',
      location: '4 Queen Street, Edinburgh',
      description: 'Water damage from a burst kitchen pipe',
    },
    claim_details: { amount_claimed: 3450, repair_company: 'Forth Plumbing Ltd' },
    declaration: { signed_by: 'Maria Gonzalez', signature_date: '2024-02-12' },
  },
};

export const DEMO_DOCUMENTS: readonly DemoDocument[] = [INVOICE, LAB_REPORT, CLAIM];

/** The layout's text lines per page, as a typed or printed page shows them. */
export function layoutLines(layout: DemoLayout): string[][] {
  return layout.pages.map((sections, index) => [
    ...(index === 0 ? [layout.title] : []),
    ...sections.flatMap((section) => [
      ...(section.heading ? [section.heading] : []),
      ...(section.lines ?? []).map(([label, printed]) => `${label}: ${printed}`),
      ...(section.table
        ? [section.table.columns, ...section.table.rows].map((row) => row.join(' | '))
        : []),
    ]),
  ]);
}

/** A PDF with a text layer, one page per layout page (pdf-lib, Helvetica). */
export async function renderPdf(layout: DemoLayout, title?: string): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  if (title) pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of layoutLines(layout)) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, index) => {
      page.drawText(line, { x: 48, y: 790 - index * 22, size: 11, font });
    });
  }
  return pdf.save();
}

/** A Word document: the title and headings as headings, lines as paragraphs, tables as tables. */
export async function renderDocx(layout: DemoLayout): Promise<Uint8Array> {
  const { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } =
    await import('docx');
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const children: (InstanceType<typeof Paragraph> | InstanceType<typeof Table>)[] = [
    new Paragraph({ text: layout.title, heading: HeadingLevel.HEADING_1 }),
  ];
  for (const section of layout.pages.flat()) {
    if (section.heading) {
      children.push(new Paragraph({ text: section.heading, heading: HeadingLevel.HEADING_2 }));
    }
    for (const [label, printed] of section.lines ?? []) {
      children.push(new Paragraph(`${label}: ${printed}`));
    }
    if (section.table) {
      children.push(
        new Table({
          rows: [section.table.columns, ...section.table.rows].map(
            (row) => new TableRow({ children: row.map(cell) }),
          ),
        }),
      );
    }
  }
  const document = new Document({ sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(document));
}

/**
 * A scan: each page rendered by Chromium as an image and placed in a PDF with no text layer, so
 * only OCR can read it.
 */
export async function renderScannedPdf(layout: DemoLayout, browser: Browser): Promise<Uint8Array> {
  const { PDFDocument } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const page = await browser.newPage({ viewport: { width: 900, height: 1100 } });
  try {
    for (const lines of layoutLines(layout)) {
      const body = lines
        .map((line) => `<p>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`)
        .join('');
      await page.setContent(
        `<body style="margin:48px;background:#fff;color:#000;font:28px Arial,sans-serif;line-height:1.5">${body}</body>`,
      );
      const png = await pdf.embedPng(await page.screenshot({ type: 'png', fullPage: true }));
      const scale = 0.5;
      pdf
        .addPage([png.width * scale, png.height * scale])
        .drawImage(png, { x: 0, y: 0, width: png.width * scale, height: png.height * scale });
    }
  } finally {
    await page.close();
  }
  return pdf.save();
}

export interface DemoFile {
  document: DemoDocument;
  bytes: Uint8Array;
}

/**
 * The three demo files. The claim needs a browser to draw its scan; without one only the invoice
 * and the lab report are made.
 */
export async function demoFiles(browser?: Browser): Promise<DemoFile[]> {
  const files: DemoFile[] = [
    { document: INVOICE, bytes: await renderPdf(INVOICE.layout, 'Invoice INV-2024-0042') },
    { document: LAB_REPORT, bytes: await renderDocx(LAB_REPORT.layout) },
  ];
  if (browser)
    files.push({ document: CLAIM, bytes: await renderScannedPdf(CLAIM.layout, browser) });
  return files;
}

/** More invoices like the demo one (for stacks): other numbers, vendors and totals. */
export function invoiceVariant(index: number): DemoDocument {
  const vendors = ['Acme Supplies Ltd', 'Forth Medical', 'Pentland Paper Co'];
  const vendor = vendors[index % vendors.length] ?? 'Acme Supplies Ltd';
  const subtotal = 100 * (index + 1) + 0.25;
  const vat = Math.round(subtotal * 20) / 100;
  const total = Math.round((subtotal + vat) * 100) / 100;
  const money = (n: number) => n.toLocaleString('en-GB', { minimumFractionDigits: 2 });
  const number = `INV-2024-${String(100 + index).padStart(4, '0')}`;
  const date = `2024-0${(index % 9) + 1}-1${index % 10}`;
  return {
    name: 'invoice',
    fileName: `invoice-${number}.pdf`,
    mimeType: 'application/pdf',
    documentType: 'invoice',
    layout: {
      title: 'INVOICE',
      pages: [
        [
          {
            heading: null,
            lines: [
              ['Invoice number', number],
              ['Invoice date', date],
              ['Currency', 'GBP'],
            ],
          },
          { heading: 'VENDOR', lines: [['Name', vendor]] },
          {
            heading: 'TOTALS',
            lines: [
              ['Subtotal', money(subtotal)],
              ['VAT', money(vat)],
              ['Total', money(total)],
            ],
          },
        ],
      ],
    },
    truth: {
      invoice_number: number,
      invoice_date: date,
      currency: 'GBP',
      vendor: { name: vendor },
      totals: { subtotal, vat, total },
    },
  };
}
