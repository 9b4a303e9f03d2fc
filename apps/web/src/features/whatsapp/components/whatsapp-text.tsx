import type { ReactNode } from 'react';

/**
 * A message's text styled as WhatsApp styles it on the phone: *bold*, _italic_, ~strikethrough~,
 * `code` and ``` blocks ```. An agent's Markdown reply is sent in these marks, and contacts type
 * them too: the owner reads what the contact's phone shows, not the marks. A mark only counts
 * where WhatsApp reads one: opening after a space or punctuation and before a letter, closing
 * the reverse, on one line; "2*3*4" and "snake_case_name" stay as typed. Text only: nothing
 * here is ever HTML.
 */
export function WhatsAppText({ text }: { text: string }): ReactNode {
  return blocks(text);
}

/** ``` blocks: kept as typed inside, in a monospace font. */
function blocks(text: string): ReactNode[] {
  const parts = text.split(/```([\s\S]+?)```/);
  return parts.map((part, index) =>
    index % 2 === 1 ? (
      <code key={index} className="wa-text__block">
        {part}
      </code>
    ) : (
      inline(part, `${index}`)
    ),
  );
}

/** The characters a mark may touch on its outer side (besides a space or the text's end). */
const EDGE = String.raw`[\s.,;:!?()[\]{}"'«»“”‘’/\-]`;

/**
 * One styled run: its mark (the same on both sides), then what it holds, which starts and ends
 * with a non-space and stays on one line; the mark's outer sides touch a space, punctuation or
 * the text's end.
 */
const STYLED = new RegExp(
  String.raw`(^|${EDGE})([*_~\x60])(?!\s)([^\n]*?[^\s\n])\2(?=$|${EDGE})`,
  'gu',
);

const ELEMENTS: Record<string, (key: string, children: ReactNode) => ReactNode> = {
  '*': (key, children) => <strong key={key}>{children}</strong>,
  _: (key, children) => <em key={key}>{children}</em>,
  '~': (key, children) => <s key={key}>{children}</s>,
  '`': (key, children) => <code key={key}>{children}</code>,
};

function inline(text: string, key: string): ReactNode {
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(STYLED)) {
    const [whole, before, mark, inner] = match as unknown as [string, string, string, string];
    const start = match.index + before.length;
    if (start > last) out.push(text.slice(last, start));
    const childKey = `${key}.${start}`;
    // Code is shown as typed; the other styles may hold one another (*_both_*).
    out.push(ELEMENTS[mark]!(childKey, mark === '`' ? inner : inline(inner, childKey)));
    last = match.index + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out.length === 1 && typeof out[0] === 'string' ? out[0] : out;
}
