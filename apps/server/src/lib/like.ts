/** `text` with LIKE's wildcards (`%`, `_`) and its escape character (`\`) taken literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern matching `text` anywhere, its own `%`, `_` and `\` taken literally. */
export function containing(text: string): string {
  return `%${escapeLike(text)}%`;
}
