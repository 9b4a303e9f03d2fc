import type { List, Nodes, PhrasingContent, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';

/**
 * An agent's reply, written in Markdown for the web chat, as WhatsApp shows text: *bold*,
 * _italic_, `code` and ``` blocks, lists as "- " and "1. " lines, headings in bold.
 * WhatsApp shows "**word**" and "[text](/page)" as they are typed, and a link to a page of this
 * site (the engine's "/dashboard") leads nowhere on a phone: each link becomes its text followed
 * by its address, made absolute on `publicUrl` (the address alone when the text is the address).
 * Parsed as CommonMark (as the web chat renders it) by mdast-util-from-markdown, so that "2 * 3 * 4" stays text and emphasis
 * inside words is read as Markdown reads it.
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

  function inline(nodes: PhrasingContent[]): string {
    return nodes.map(phrase).join('');
  }

  function phrase(node: PhrasingContent): string {
    switch (node.type) {
      case 'text':
        return node.value;
      case 'strong':
        return wrap('*', inline(node.children));
      case 'emphasis':
        return wrap('_', inline(node.children));
      case 'inlineCode':
        return `\`${node.value}\``;
      case 'break':
        return '\n';
      case 'link': {
        const text = inline(node.children).trim();
        const url = absolute(node.url);
        return !text || text === node.url || text === url ? url : `${text} (${url})`;
      }
      case 'image':
        return node.alt ? `${node.alt} (${absolute(node.url)})` : absolute(node.url);
      case 'html':
        return node.value;
      default:
        return 'children' in node ? inline(node.children as PhrasingContent[]) : 'value' in node ? String(node.value) : '';
    }
  }

  function list(node: List, depth: number): string {
    const start = node.start ?? 1;
    return node.children
      .map((item, index) => {
        const marker = node.ordered ? `${start + index}. ` : '- ';
        const indent = '  '.repeat(depth);
        const body = item.children.map((child) => (child.type === 'list' ? list(child, depth + 1) : block(child, depth + 1))).join('\n');
        return `${indent}${marker}${body.replace(/^\s+/, '')}`;
      })
      .join('\n');
  }

  function block(node: RootContent | Nodes, depth = 0): string {
    switch (node.type) {
      case 'paragraph':
        return inline(node.children);
      case 'heading':
        return wrap('*', inline(node.children));
      case 'list':
        return list(node, depth);
      case 'blockquote':
        return node.children
          .map((child) => block(child, depth))
          .join('\n\n')
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n');
      case 'code':
        return `\`\`\`\n${node.value}\n\`\`\``;
      case 'thematicBreak':
        return '———';
      case 'html':
        return node.value;
      case 'definition':
        return '';
      default:
        return 'children' in node ? (node.children as RootContent[]).map((child) => block(child, depth)).join('\n\n') : 'value' in node ? String(node.value) : '';
    }
  }

  const tree = fromMarkdown(markdown);
  return tree.children
    .map((child) => block(child))
    .filter((text) => text.trim() !== '')
    .join('\n\n')
    .trim();
}
