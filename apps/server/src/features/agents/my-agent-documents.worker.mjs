// @ts-check
// A document's text, read on a thread of its own (see my-agent-documents.reader.ts). Parsing a PDF
// of 200 pages or a large DOCX is seconds of JavaScript: here it holds up nobody, whereas on the
// event loop every request arriving meanwhile would wait.
//
// Plain JavaScript, type-checked through the JSDoc below, so that a worker thread runs it as it is
// from source (tsx, Vitest) as well as from the build (dist/my-agent-documents.worker.js): loaders
// do not reach worker threads on Node 20. It imports nothing of the application's.
import { parentPort } from 'node:worker_threads';

/** @typedef {import('./my-agent-documents.reader').DocumentKind} DocumentKind */
/** @typedef {import('./my-agent-documents.reader').ReaderRequest} ReaderRequest */
/** @typedef {import('./my-agent-documents.reader').ReaderReply} ReaderReply */
/** @typedef {import('./my-agent-documents.reader').ReadFailure} ReadFailure */
/** @typedef {import('./agents.table').DocumentPassage} DocumentPassage */
/** @typedef {{ heading: boolean, text: string, page?: number }} Block */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** A passage grows by whole paragraphs up to this many characters… */
const PASSAGE_MAX = 1000;
/** …and one shorter than this takes the next paragraph in even past PASSAGE_MAX's bound. */
const PASSAGE_MIN = 600;
/** Past this, even a short passage ends: one paragraph is never cut below it, nor grown above. */
const PASSAGE_HARD_MAX = 1400;
/** A line of a PDF this much larger than the body's text, and short, is a heading. */
const HEADING_SIZE_RATIO = 1.15;
const HEADING_MAX = 120;

/** A refusal the caller turns into its message. */
class Refusal extends Error {
  /** @param {ReadFailure} reason */
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

// ---- PDF ----

/**
 * A PDF's lines, page by page, with their font size: pdf.js gives text in runs, each with its
 * position; runs on one baseline make a line.
 * @param {Uint8Array} bytes
 * @returns {Promise<{ pages: number, lines: { page: number, y: number, size: number, text: string }[] }>}
 */
async function pdfLines(bytes) {
  const { getDocumentProxy } = await import('unpdf');
  /** @type {Awaited<ReturnType<typeof getDocumentProxy>>} */
  let pdf;
  try {
    pdf = await getDocumentProxy(bytes, { isEvalSupported: false, verbosity: 0 });
  } catch (error) {
    // A password is needed to read it at all (one that restricts only printing or copying is not).
    throw new Refusal(
      /** @type {{ name?: string }} */ (error)?.name === 'PasswordException'
        ? 'encrypted'
        : 'damaged',
    );
  }
  /** @type {{ page: number, y: number, size: number, text: string, endX: number }[]} */
  const lines = [];
  try {
    for (let number = 1; number <= pdf.numPages; number += 1) {
      const page = await pdf.getPage(number);
      const { items } = await page.getTextContent();
      /** @type {(typeof lines)[number] | undefined} */
      let line;
      let ended = false;
      for (const item of items) {
        if (!('str' in item)) continue;
        const [, , c = 0, d = 0, x = 0, y = 0] = item.transform;
        const size = Math.hypot(c, d) || item.height || 1;
        if (item.str) {
          if (line && !ended && Math.abs(line.y - y) <= size * 0.3) {
            // Runs a word apart are joined by a space, unless the text has one already.
            const gap = x - line.endX;
            const spaced = /\s$/.test(line.text) || /^\s/.test(item.str);
            line.text += gap > size * 0.15 && !spaced ? ` ${item.str}` : item.str;
            line.size = Math.max(line.size, size);
          } else {
            if (line) lines.push(line);
            line = { page: number, y, size, text: item.str, endX: x };
          }
          line.endX = x + (item.width ?? 0);
          ended = false;
        }
        if (item.hasEOL) ended = true;
      }
      if (line) lines.push(line);
      page.cleanup();
    }
    return { pages: pdf.numPages, lines };
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal('damaged');
  } finally {
    void pdf.destroy();
  }
}

/**
 * The body text's size: the size most of the characters are written in.
 * @param {{ size: number, text: string }[]} lines
 */
function bodySize(lines) {
  /** @type {Map<number, number>} */
  const characters = new Map();
  for (const { size, text } of lines) {
    const rounded = Math.round(size * 2) / 2;
    characters.set(rounded, (characters.get(rounded) ?? 0) + text.length);
  }
  let body = 0;
  let most = -1;
  for (const [size, count] of characters) {
    if (count > most) [body, most] = [size, count];
  }
  return body;
}

/**
 * A PDF's paragraphs and headings: a line in larger type and short is a heading; a line follows
 * the one above in its paragraph unless a gap wider than a line's, or a page, parts them.
 * @param {Uint8Array} bytes
 * @returns {Promise<{ pages: number, blocks: Block[] }>}
 */
async function readPdf(bytes) {
  const { pages, lines } = await pdfLines(bytes);
  const body = bodySize(lines);
  /** @type {Block[]} */
  const blocks = [];
  /** @type {{ page: number, y: number, size: number } | undefined} */
  let previous;
  for (const { page, y, size, text: raw } of lines) {
    const text = raw.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const heading = size >= body * HEADING_SIZE_RATIO && text.length <= HEADING_MAX;
    const last = blocks.at(-1);
    const follows =
      last !== undefined &&
      !last.heading &&
      !heading &&
      previous !== undefined &&
      previous.page === page &&
      previous.y - y > 0 &&
      previous.y - y <= Math.max(size, previous.size) * 1.6;
    if (follows) last.text += `${/-$/.test(last.text) ? '' : ' '}${text}`;
    else blocks.push({ heading, text, page });
    previous = { page, y, size };
  }
  return { pages, blocks };
}

// ---- DOCX ----

/** @param {string} html */
const plain = (html) =>
  html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(
      /&(amp|lt|gt|quot|#39|nbsp);/g,
      (_, name) =>
        /** @type {Record<string, string>} */ ({
          amp: '&',
          lt: '<',
          gt: '>',
          quot: '"',
          '#39': "'",
          nbsp: ' ',
        })[name] ?? '',
    )
    .replace(/\s+/g, ' ')
    .trim();

/**
 * A DOCX's paragraphs and headings, as mammoth reads them (its HTML: h1–h6, p, li, tables); a
 * table's row is one paragraph, its cells parted by " | ", so that a price stays with its item.
 * @param {Uint8Array} bytes
 * @returns {Promise<{ pages: null, blocks: Block[] }>}
 */
async function readDocx(bytes) {
  const { default: mammoth } = await import('mammoth');
  let html;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes) })).value;
  } catch {
    throw new Refusal('damaged');
  }
  const rows = html.replace(/<tr>([\s\S]*?)<\/tr>/g, (_, row) => {
    const cells = [...String(row).matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)]
      .map(([, cell]) => plain(cell ?? ''))
      .filter(Boolean);
    return `<p>${cells.join(' | ')}</p>`;
  });
  /** @type {Block[]} */
  const blocks = [];
  for (const [, tag = '', inner = ''] of rows.matchAll(/<(h[1-6]|p|li)\b[^>]*>([\s\S]*?)<\/\1>/g)) {
    const text = plain(inner);
    if (text) blocks.push({ heading: tag.startsWith('h'), text });
  }
  return { pages: null, blocks };
}

// ---- TXT and Markdown ----

/**
 * A text's paragraphs (parted by blank lines) and headings: Markdown's `#` lines; in plain text, a
 * short line alone, without a sentence's final punctuation, before more text.
 * @param {Uint8Array} bytes
 * @param {boolean} markdown
 * @returns {{ pages: null, blocks: Block[] }}
 */
function readText(bytes, markdown) {
  const text = new TextDecoder('utf-8').decode(bytes).replace(/\r\n?/g, '\n');
  /** @type {Block[]} */
  const blocks = [];
  for (const chunk of text.split(/\n\s*\n/)) {
    /** @type {string[]} */
    let lines = [];
    const flush = () => {
      const joined = lines.join(' ').replace(/\s+/g, ' ').trim();
      if (joined) blocks.push({ heading: false, text: joined });
      lines = [];
    };
    for (const line of chunk.split('\n')) {
      const title = markdown ? /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line) : null;
      if (title) {
        flush();
        if (title[1]) blocks.push({ heading: true, text: title[1] });
      } else lines.push(line);
    }
    flush();
  }
  if (!markdown) {
    blocks.forEach((block, index) => {
      block.heading =
        index < blocks.length - 1 &&
        block.text.length <= 80 &&
        !/[.:;,!?…)]$/.test(block.text) &&
        !blocks[index + 1]?.heading;
    });
  }
  return { pages: null, blocks };
}

// ---- Passages ----

/**
 * Pieces of at most `max` characters of one long paragraph, cut after a sentence where one ends
 * in time, else at a space, else anywhere.
 * @param {string} text
 * @param {number} max
 */
function cut(text, max) {
  /** @type {string[]} */
  const pieces = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    const sentence = Math.max(...['. ', '? ', '! ', '; '].map((end) => window.lastIndexOf(end)));
    const space = window.lastIndexOf(' ');
    const at = sentence >= max / 2 ? sentence + 1 : space >= max / 2 ? space : max;
    pieces.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * Paragraph-sized passages (PASSAGE_MIN–PASSAGE_MAX characters where the text allows), each with
 * the page it starts on and the nearest heading above it; a heading starts a new passage.
 * @param {Block[]} blocks
 * @returns {DocumentPassage[]}
 */
export function passagesOf(blocks) {
  /** @type {DocumentPassage[]} */
  const passages = [];
  /** @type {string | undefined} */
  let heading;
  /** @type {DocumentPassage | undefined} */
  let current;
  const flush = () => {
    if (current) passages.push(current);
    current = undefined;
  };
  for (const block of blocks) {
    if (block.heading) {
      flush();
      heading = block.text.slice(0, HEADING_MAX);
      continue;
    }
    for (const piece of cut(block.text, PASSAGE_MAX)) {
      const joined = current ? current.text.length + 2 + piece.length : 0;
      if (
        current &&
        (joined <= PASSAGE_MAX || (current.text.length < PASSAGE_MIN && joined <= PASSAGE_HARD_MAX))
      ) {
        current.text += `\n\n${piece}`;
        continue;
      }
      flush();
      current = {
        text: piece,
        ...(block.page === undefined ? {} : { page: block.page }),
        ...(heading === undefined ? {} : { heading }),
      };
    }
  }
  flush();
  return passages;
}

/**
 * @param {DocumentKind} kind
 * @param {Uint8Array} bytes
 */
async function read(kind, bytes) {
  const { pages, blocks } =
    kind === 'pdf'
      ? await readPdf(bytes)
      : kind === 'docx'
        ? await readDocx(bytes)
        : readText(bytes, kind === 'markdown');
  const passages = passagesOf(blocks);
  const characters = passages.reduce((sum, passage) => sum + passage.text.length, 0);
  // A PDF of pages without text is a scan (images only); any other kind, or a PDF without pages, is empty.
  if (characters === 0) throw new Refusal(kind === 'pdf' && pages ? 'noText' : 'empty');
  return { pages, characters, passages };
}

port?.on('message', (/** @type {ReaderRequest} */ request) => {
  read(request.kind, request.bytes).then(
    (document) => port.postMessage(/** @type {ReaderReply} */ ({ id: request.id, document })),
    (/** @type {unknown} */ error) =>
      port.postMessage(
        /** @type {ReaderReply} */ ({
          id: request.id,
          failure: error instanceof Refusal ? error.reason : 'damaged',
        }),
      ),
  );
});
