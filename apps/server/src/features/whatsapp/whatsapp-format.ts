import { Parser, type Node } from 'commonmark';

/** One parser for every reply: commonmark.js keeps no state between parses. */
const parser = new Parser();

/** A node's children, in order. */
function childrenOf(node: Node): Node[] {
  const children: Node[] = [];
  for (let child = node.firstChild; child; child = child.next) children.push(child);
  return children;
}

/**
 * An agent's reply, written in Markdown for the web chat, as WhatsApp shows text: *bold*,
 * _italic_, `code` and ``` blocks, lists as "- " and "1. " lines, headings in bold.
 * WhatsApp shows "**word**" and "[text](/page)" as they are typed, and a link to a page of this
 * site (the engine's "/dashboard") leads nowhere on a phone: each link becomes its text followed
 * by its address, made absolute on `publicUrl` (the address alone when the text is the address).
 * Parsed as CommonMark, as the web chat renders it, so that "2 * 3 * 4" stays text and emphasis
 * inside words is read as Markdown reads it: by commonmark.js, the specification's reference
 * implementation, some twenty times faster than micromark (the web chat's parser), and every
 * reply sent to a contact is parsed.
 */
export function toWhatsAppText(markdown: string, publicUrl: string): string {
  const absolute = (url: string) => {
    if (!url.startsWith('/') || url.startsWith('//')) return url;
    return `${publicUrl.replace(/\/+$/, '')}${url}`;
  };

  /** `marker` around the text, when it has any: WhatsApp wants the marks against non-space characters. */
  const wrap = (marker: string, inner: string) => {
    const trimmed = inner.trim();
    if (!trimmed) return inner;
    const lead = inner.slice(0, inner.indexOf(trimmed));
    const trail = inner.slice(lead.length + trimmed.length);
    return `${lead}${marker}${trimmed}${marker}${trail}`;
  };

  function inline(node: Node): string {
    return childrenOf(node).map(phrase).join('');
  }

  function phrase(node: Node): string {
    switch (node.type) {
      case 'text':
      case 'html_inline':
        return node.literal ?? '';
      case 'strong':
        return wrap('*', inline(node));
      case 'emph':
        return wrap('_', inline(node));
      case 'code':
        return `\`${node.literal ?? ''}\``;
      case 'softbreak':
      case 'linebreak':
        return '\n';
      case 'link': {
        const text = inline(node).trim();
        const destination = node.destination ?? '';
        const url = absolute(destination);
        return !text || text === destination || text === url ? url : `${text} (${url})`;
      }
      case 'image': {
        const alt = inline(node);
        const url = absolute(node.destination ?? '');
        return alt ? `${alt} (${url})` : url;
      }
      default:
        return node.literal ?? inline(node);
    }
  }

  function list(node: Node, depth: number): string {
    const ordered = node.listType === 'ordered';
    const start = node.listStart ?? 1;
    return childrenOf(node)
      .map((item, index) => {
        const marker = ordered ? `${start + index}. ` : '- ';
        const indent = '  '.repeat(depth);
        const body = childrenOf(item)
          .map((child) =>
            child.type === 'list' ? list(child, depth + 1) : block(child, depth + 1),
          )
          .join('\n');
        return `${indent}${marker}${body.replace(/^\s+/, '')}`;
      })
      .join('\n');
  }

  function block(node: Node, depth = 0): string {
    switch (node.type) {
      case 'paragraph':
        return inline(node);
      case 'heading':
        return wrap('*', inline(node));
      case 'list':
        return list(node, depth);
      case 'block_quote':
        return childrenOf(node)
          .map((child) => block(child, depth))
          .join('\n\n')
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n');
      case 'code_block':
        return `\`\`\`\n${(node.literal ?? '').replace(/\n$/, '')}\n\`\`\``;
      case 'thematic_break':
        return '———';
      case 'html_block':
        return (node.literal ?? '').replace(/\n$/, '');
      default:
        return (
          node.literal ??
          childrenOf(node)
            .map((child) => block(child, depth))
            .join('\n\n')
        );
    }
  }

  return childrenOf(parser.parse(markdown))
    .map((child) => block(child))
    .filter((text) => text.trim() !== '')
    .join('\n\n')
    .trim();
}
