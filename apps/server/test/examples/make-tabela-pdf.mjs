// Writes `Tabela 2026.pdf` from clinica-sorriso-precos.md as a word processor would lay it out:
// the title and each policy's name in larger type, its text in lines beneath, the price table
// as rows. Run from the repository: `node apps/server/test/examples/make-tabela-pdf.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const here = import.meta.dirname;
const markdown = fs.readFileSync(path.join(here, 'clinica-sorriso-precos.md'), 'utf8');

/** The Markdown as blocks: a heading (larger type) or a paragraph's text. */
const blocks = [];
for (const part of markdown.split(/\n\s*\n/)) {
  const text = part.replace(/\s*\n\s*/g, ' ').trim();
  if (!text) continue;
  const heading = /^#+\s+(.*)$/.exec(text);
  const policy = /^\*\*(.+?)\.\*\*\s*(.*)$/.exec(text);
  if (heading) blocks.push({ heading: heading[1] });
  else if (policy) blocks.push({ heading: policy[1] }, { text: policy[2] });
  else if (text.startsWith('|'))
    for (const row of part.split('\n').filter((line) => !/^\|[-:| ]+\|$/.test(line.trim())))
      blocks.push({
        text: row
          .split('|')
          .map((cell) => cell.trim())
          .filter(Boolean)
          .join('  '),
      });
  else blocks.push({ text });
}

const pdf = await PDFDocument.create();
const font = await pdf.embedFont(StandardFonts.Helvetica);
const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
let page = pdf.addPage([595, 842]);
let y = 790;
const line = (text, { size, face }) => {
  if (y < 60) {
    page = pdf.addPage([595, 842]);
    y = 790;
  }
  page.drawText(text, { x: 50, y, font: face, size });
  y -= size + 4;
};
for (const block of blocks) {
  if (block.heading) {
    y -= 10;
    line(block.heading, { size: 15, face: bold });
    continue;
  }
  // Lines of at most 480 points, broken between words.
  let current = '';
  for (const word of block.text.replaceAll('**', '').split(' ')) {
    const next = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(next, 11) > 480) {
      line(current, { size: 11, face: font });
      current = word;
    } else current = next;
  }
  if (current) line(current, { size: 11, face: font });
  y -= 8;
}
fs.writeFileSync(path.join(here, 'Tabela 2026.pdf'), await pdf.save({ useObjectStreams: false }));
