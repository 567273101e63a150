/**
 * Close spellings of a typed word, found without a pass over the whole
 * vocabulary: the words are kept as a trie (typed arrays, built once per
 * vocabulary), walked with one row of the edit-distance table per node, and a
 * branch is left as soon as no word under it can be close enough (Hanov's
 * trie walk, with transpositions). A typo of one or two letters then visits a
 * few thousand nodes of a 100,000-word vocabulary instead of every word.
 *
 * The distance is the optimal string alignment one: an insertion, a deletion,
 * a substitution or a swap of two neighbouring letters each count one.
 */

/**
 * The vocabulary's words in code-unit order as a trie. Node 0 is the root;
 * nodes are numbered in the words' order, so the words under a node are a run
 * of the sorted words: from its own `from` to the next sibling's (or, for a
 * last child, to its parent's end).
 */
export interface SpellingTrie {
  /** The letter (code unit) on the edge into each node. */
  letter: Uint16Array;
  firstChild: Int32Array;
  nextSibling: Int32Array;
  /** The first sorted word under each node; when `ends`, that word ends at the node. */
  from: Int32Array;
  ends: Uint8Array;
  /** How many sorted words there are. */
  size: number;
  /** Each sorted word's rank (0 = the most used), and whether it holds a digit (never a spelling). */
  rank: Uint32Array;
  hasDigit: Uint8Array;
}

const isDigitCode = (code: number) => code >= 48 && code <= 57;

/** The trie of these words, which must be distinct and in code-unit order, with each one's rank. */
export function spellingTrie(sorted: readonly string[], rank: Uint32Array): SpellingTrie {
  const capacity = sorted.reduce((sum, word) => sum + word.length, 1);
  const letter = new Uint16Array(capacity);
  const firstChild = new Int32Array(capacity).fill(-1);
  const nextSibling = new Int32Array(capacity).fill(-1);
  const from = new Int32Array(capacity);
  const ends = new Uint8Array(capacity);
  let nodes = 1;
  // The path from the root to the last word's end, and each path node's last child so far.
  const path = [0];
  const lastChild = [-1];
  let previous = "";
  sorted.forEach((word, at) => {
    let shared = 0;
    while (shared < word.length && shared < previous.length && word[shared] === previous[shared]) shared++;
    path.length = shared + 1;
    lastChild.length = shared + 1;
    for (let depth = shared; depth < word.length; depth++) {
      const node = nodes++;
      letter[node] = word.charCodeAt(depth);
      from[node] = at;
      const sibling = lastChild[depth] as number;
      if (sibling === -1) firstChild[path[depth] as number] = node;
      else nextSibling[sibling] = node;
      lastChild[depth] = node;
      path.push(node);
      lastChild.push(-1);
    }
    ends[path[word.length] as number] = 1;
    previous = word;
  });
  // Words share their starts: the trie has fewer nodes than letters; keep only those.
  return {
    letter: letter.slice(0, nodes),
    firstChild: firstChild.slice(0, nodes),
    nextSibling: nextSibling.slice(0, nodes),
    from: from.slice(0, nodes),
    ends: ends.slice(0, nodes),
    size: sorted.length,
    rank,
    hasDigit: Uint8Array.from(sorted, (word) => (/\p{N}/u.test(word) ? 1 : 0)),
  };
}

/**
 * The work one search may still do against the vocabulary, in steps: a cell
 * of the edit-distance table, a node of the trie, or a word looked at. Shared
 * by every word of the search, so no input, however long or strange, costs
 * more than this.
 */
export interface SearchBudget {
  steps: number;
}

/**
 * Steps one search may take: a few milliseconds of CPU, several times what
 * the worst real search needs (three long misspelt words: about 100,000 on a
 * 100,000-word vocabulary).
 */
export const SEARCH_STEPS = 400_000;

export const searchBudget = (): SearchBudget => ({ steps: SEARCH_STEPS });

/**
 * The ranks of the words closest to `typed` within `allowed` typos, all at the
 * best distance found, most used first; with `asStart`, words whose start is
 * that close (the start as long as the typed word, give or take the typos
 * allowed) and which begin with the same letter, as nearly every typo
 * mid-typing does. Null when the budget ran out before the walk ended: an
 * unfinished walk could offer a worse spelling than the best, so the caller
 * offers none.
 */
export function closeSpellingRanks(
  typed: string,
  trie: SpellingTrie,
  allowed: number,
  asStart: boolean,
  budget: SearchBudget,
): number[] | null {
  const { letter, firstChild, nextSibling, from, ends, hasDigit } = trie;
  const length = typed.length;
  const typedCodes = Array.from({ length }, (_, at) => typed.charCodeAt(at));
  const maxDepth = length + allowed;
  // Distances past `allowed` are all alike ("too far"): each is kept as `far`, and only the
  // cells within `allowed` of the diagonal are ever computed (Ukkonen's band), so a node costs
  // the same for a word of ten letters or of a hundred. rows[d][j]: the distance between the
  // node's first d letters and the typed word's first j.
  const far = allowed + 1;
  const rows = Array.from({ length: maxDepth + 1 }, () => new Uint16Array(length + 1).fill(far));
  const rowMins = new Uint16Array(maxDepth + 1);
  const path = new Uint16Array(maxDepth + 1);
  for (let j = 0; j <= Math.min(length, allowed); j++) (rows[0] as Uint16Array)[j] = j;
  // A start is measured at these lengths (the whole word too, when it is as short).
  const windowFrom = Math.max(1, length - allowed);

  let best = far;
  let found: number[] = [];
  const record = (at: number, distance: number) => {
    if (hasDigit[at]) return;
    if (distance < best) [best, found] = [distance, [at]];
    else if (distance === best) found.push(at);
  };
  /** Every word in [first, end) answers at `distance` (a start close enough, and no deeper row can do better). */
  const recordAll = (first: number, end: number, distance: number) => {
    budget.steps -= end - first;
    if (budget.steps < 0) return false;
    for (let at = first; at < end; at++) record(at, distance);
    return true;
  };

  /** The row for the node's letters plus `code`, at depth + 1 (its band only); its smallest cell. */
  const nextRow = (depth: number, code: number): number => {
    const previous = rows[depth] as Uint16Array;
    const row = rows[depth + 1] as Uint16Array;
    const beforePrevious = depth >= 1 ? (rows[depth - 1] as Uint16Array) : null;
    const lastCode = depth >= 1 ? (path[depth - 1] as number) : -1;
    const [first, last] = [Math.max(0, depth + 1 - allowed), Math.min(length, depth + 1 + allowed)];
    let smallest = far;
    for (let j = first; j <= last; j++) {
      let distance: number;
      if (j === 0) distance = depth + 1;
      else {
        const typedCode = typedCodes[j - 1] as number;
        distance = Math.min(
          (previous[j] as number) + 1,
          (row[j - 1] as number) + 1,
          (previous[j - 1] as number) + (typedCode === code ? 0 : 1),
        );
        if (beforePrevious && j >= 2 && code === typedCodes[j - 2] && lastCode === typedCode) {
          distance = Math.min(distance, (beforePrevious[j - 2] as number) + 1);
        }
      }
      row[j] = Math.min(distance, far);
      if (distance < smallest) smallest = distance;
    }
    budget.steps -= last - first + 2;
    return smallest;
  };

  /**
   * A node at `depth`, whose row is rows[depth], and the end of its run of
   * words; `bestOnPath` is the best distance of a start measured on the way
   * down (asStart). False when the budget ran out.
   */
  const walk = (node: number, end: number, depth: number, bestOnPath: number): boolean => {
    const first = from[node] as number;
    const own = ends[node] ? first : -1;
    if (own >= 0) {
      const whole = (rows[depth] as Uint16Array)[length] as number;
      if (asStart) {
        if (bestOnPath <= allowed) record(own, bestOnPath);
      } else if (whole <= allowed) record(own, whole);
    }
    if (depth === maxDepth) {
      if (!asStart || bestOnPath > allowed) return true;
      return recordAll(own >= 0 ? own + 1 : first, end, bestOnPath);
    }
    for (let child = firstChild[node] as number; child !== -1; child = nextSibling[child] as number) {
      const sibling = nextSibling[child] as number;
      const childEnd = sibling === -1 ? end : (from[sibling] as number);
      const code = letter[child] as number;
      if ((depth === 0 && asStart && code !== typedCodes[0]) || isDigitCode(code)) continue;
      path[depth] = code;
      const smallest = nextRow(depth, code);
      if (budget.steps < 0) return false;
      rowMins[depth + 1] = smallest;
      const measured = asStart && depth + 1 >= windowFrom;
      const below = measured
        ? Math.min(bestOnPath, (rows[depth + 1] as Uint16Array)[length] as number)
        : bestOnPath;
      // A swap reaches back one row: a branch is left only when neither row can still come close.
      const mayComeClose = smallest <= allowed || (depth >= 1 && (rowMins[depth] as number) < allowed);
      if (mayComeClose) {
        if (!walk(child, childEnd, depth + 1, below)) return false;
      } else if (asStart && below <= allowed) {
        if (!recordAll(from[child] as number, childEnd, below)) return false;
      }
    }
    return true;
  };

  if (!walk(0, trie.size, 0, far)) return null;
  if (best === far) return [];
  return found.map((at) => trie.rank[at] as number).sort((a, b) => a - b);
}
