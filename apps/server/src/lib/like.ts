import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** `text` with LIKE's wildcards (`%`, `_`) and its escape character (`\`) taken literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern matching `text` anywhere, its own `%`, `_` and `\` taken literally. */
export function containing(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** The accented letters Portuguese and Spanish (and their neighbours) write, in both cases… */
const ACCENTED = 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖòóôõöÙÚÛÜùúûüÇçÑñÝýÿ';
/** …and each one's plain lower-case letter, position for position. */
const PLAIN = [...ACCENTED].map((letter) => fold(letter)).join('');

/** `text` as matched without regard to accents or case: "Ação" → "acao". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * A condition: one of `columns` contains `search`, whatever its accents and case ("acao" finds
 * "Ação"), the search's wildcards taken literally. The columns are folded by `translate` and
 * `lower`, built into PostgreSQL (and PGlite): no extension to install, at the price of an index
 * (fine for the small tables it searches).
 */
export function foldedContains(columns: SQLWrapper[], search: string): SQL {
  const pattern = containing(fold(search));
  const matches = columns.map(
    (column) => sql`lower(translate(${column}, ${ACCENTED}, ${PLAIN})) like ${pattern}`,
  );
  return sql`(${sql.join(matches, sql` or `)})`;
}
