import type { FileProblem } from "./catalog-file.server";

/** A brand or a category: the value products carry, and the label shoppers read. */
export interface FacetValue {
  value: string;
  label: string;
}

/** What an import changes in the brands or the categories. */
export interface FacetChanges {
  /** New values, in the order the file first names them. */
  added: FacetValue[];
  /** Known values whose label the file changes. */
  relabelled: FacetValue[];
  /** Values no product has once the import is done (only with `prune`). */
  removed: string[];
}

/**
 * A facet (brand or category) named in a file: a known value as written, or
 * a known value or label written in other letter case ("teachpro" is the
 * demo's "teachPro"); otherwise a new value, as written. The first label a
 * file gives a facet is the one used; a different one on a later line is
 * reported, so that a re-import never swaps labels back and forth.
 */
export function facetResolver(known: readonly FacetValue[], column: string) {
  const byValue = new Map(known.map((facet) => [facet.value, facet]));
  const byLowerCase = new Map<string, FacetValue>();
  for (const facet of known) {
    byLowerCase.set(facet.label.toLowerCase(), facet);
    byLowerCase.set(facet.value.toLowerCase(), facet);
  }
  const added: FacetValue[] = [];
  const relabelled = new Map<string, FacetValue>();
  const labelled = new Map<string, { label: string; line: number }>();
  const warnings: FileProblem[] = [];
  const resolve = (written: string, label: string | undefined, line: number): string => {
    let facet = byValue.get(written) ?? byLowerCase.get(written.toLowerCase());
    if (!facet) {
      facet = { value: written, label: label ?? written };
      added.push(facet);
      byValue.set(written, facet);
      byLowerCase.set(written.toLowerCase(), facet);
    }
    if (label === undefined) return facet.value;
    const first = labelled.get(facet.value);
    if (first && first.label !== label) {
      warnings.push({
        line,
        column,
        message: `"${facet.value}" is labelled "${first.label}" on line ${first.line}; "${label}" here is not used.`,
      });
    } else if (!first) {
      labelled.set(facet.value, { label, line });
      if (label !== facet.label && !added.includes(facet))
        relabelled.set(facet.value, { value: facet.value, label });
    }
    return facet.value;
  };
  return {
    resolve,
    warnings: () => warnings,
    changes: (): FacetChanges => ({ added, relabelled: [...relabelled.values()], removed: [] }),
  };
}
