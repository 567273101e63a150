/**
 * Text a person typed, for a SQL LIKE pattern: its own % and _ (and the
 * escape character) match themselves, not "anything". PostgreSQL's default
 * escape character is the backslash.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
