import type { IndexTerm } from "./catalog-index.server";

/** The products carrying a lexeme: their positions, or one bit per product. */
export type PostingList =
  | { positions: Uint32Array; bits?: undefined }
  | { bits: Uint32Array; positions?: undefined };

export function valueNumber(values: Map<string, number>, value: string): number {
  let number = values.get(value);
  if (number === undefined) {
    number = values.size;
    values.set(value, number);
  }
  return number;
}

/** Lexemes in code-unit order, with the products carrying each: a dictionary a prefix is looked up in. */
export class Postings {
  readonly lexemes: string[];
  readonly lists: PostingList[];
  constructor(source: Map<string, PostingList>) {
    this.lexemes = [...source.keys()].sort();
    this.lists = this.lexemes.map((lexeme) => source.get(lexeme) as PostingList);
  }
  /** The posting lists of every lexeme a term matches: itself, or every lexeme it starts. */
  matching({ lexeme, prefix }: IndexTerm): PostingList[] {
    let low = 0;
    let high = this.lexemes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.lexemes[middle] as string) < lexeme) low = middle + 1;
      else high = middle;
    }
    const found: PostingList[] = [];
    for (let at = low; at < this.lexemes.length; at++) {
      const candidate = this.lexemes[at] as string;
      if (prefix ? !candidate.startsWith(lexeme) : candidate !== lexeme) break;
      found.push(this.lists[at] as PostingList);
    }
    return found;
  }
  get bytes() {
    return (
      this.lists.reduce((sum, list) => sum + (list.bits ?? list.positions).byteLength + 64, 0) +
      this.lexemes.length * 48
    );
  }
}
