/**
 * A Markdown reply as plain text, for screen-reader announcements: the text without the marks
 * (emphasis, code fences, list bullets, heading hashes), links reduced to their text.
 */
export function markdownToPlainText(markdown: string): string {
  return (
    markdown
      .replace(/^[ \t]*(```|~~~).*$/gm, '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/^[ \t]{0,3}(#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+)/gm, '')
      .replace(/(\*\*|\*|`)(?=\S)([\s\S]*?\S)\1/g, '$2')
      // Underscores mark emphasis only at word edges (snake_case stays).
      .replace(/(?<!\w)(__|_)(?=\S)([\s\S]*?\S)\1(?!\w)/g, '$2')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}
