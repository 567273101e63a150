/**
 * The realistic mixed workload the headline figures come from, and the run
 * information every section of bench/RESULTS.md starts with.
 *
 * Real traffic is not one URL repeated inside the 10-second cache: a fifth of
 * it goes to a few popular URLs (the first page, a popular category), the rest
 * are fresh combinations — filters (one brand or category, or two of them),
 * every sort including Top Rated, pages shoppers pick, and the prefixes a
 * search box sends as someone types ("bl", "ble", "blen", …), sometimes with
 * a typo ("blendr"), each with its /counts, as the shop page asks for both.
 * Shop pages add product pages (one in seven), as shoppers open cards. Every
 * request comes from one of a few thousand shoppers' addresses, as a shop
 * behind a proxy sees them. `distinctShare` says how often a URL repeats.
 */
import { execSync } from "node:child_process";
import os from "node:os";
import {
  DEMO_BRANDS as BRANDS,
  DEMO_CATEGORIES as CATEGORIES,
} from "../app/db/seed/demo-brands-and-categories";
import { DEMO_PRODUCTS } from "../app/db/seed/demo-catalog";
import { SORTS } from "../app/features/catalog/core/catalog-vocabulary";
import { type RandomSource, randomSource } from "../tests/support/random-source";

/** Words shoppers type: the catalogue's own (product names, brands, categories), 3+ letters. */
const SEARCH_WORDS = [
  ...new Set(
    [
      ...DEMO_PRODUCTS.flatMap((product) => product.name.split(/\s+/)),
      ...BRANDS.map((brand) => brand.label),
      ...CATEGORIES.flatMap((category) => category.label.split(/\s+/)),
    ]
      .map((word) => word.toLowerCase().replace(/[^a-z]/g, ""))
      .filter((word) => word.length >= 3),
  ),
];

/** The URLs every shopper hits: about a fifth of all requests go to these. */
const POPULAR = [
  "",
  "category=fitness",
  "sort=asc",
  "band=blendMaster",
  "category=electronics&sort=dsc",
] as const;

export interface WorkloadMix {
  popular: number;
  search: number;
  browse: number;
}

/** A fifth popular; of the rest, a little over half browsing with filters, the others searching. */
export const REALISTIC_MIX: WorkloadMix = { popular: 0.2, search: 0.35, browse: 0.45 };

/** Of the words typed, this share has a typo. */
const MISSPELT_SHARE = 0.15;

/** A typo as shoppers make them: a letter dropped, doubled, swapped with the next, or struck beside it. */
function misspelt(word: string, random: RandomSource): string {
  const at = 1 + random.int(word.length - 1);
  switch (random.int(4)) {
    case 0:
      return word.slice(0, at) + word.slice(at + 1);
    case 1:
      return word.slice(0, at) + word[at - 1] + word.slice(at);
    case 2:
      return at < word.length - 1
        ? word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2)
        : `${word}s`;
    default:
      return word.slice(0, at) + String.fromCharCode(97 + random.int(26)) + word.slice(at + 1);
  }
}

/** One or, now and then, two values of a facet (`band=a&band=b`). */
function facetValues(name: string, values: readonly { value: string }[], random: RandomSource): string[] {
  const first = random.pick(values).value;
  const chosen = random.chance(0.25) ? [first, random.pick(values).value] : [first];
  return [...new Set(chosen)].map((value) => `${name}=${encodeURIComponent(value)}`);
}

/**
 * An endless stream of catalogue queries (query strings without "?") in the
 * realistic mix. A typing session emits every prefix of a word from its second
 * letter on, then moves on to a new word.
 */
export function catalogQueries(options: { seed?: number; mix?: WorkloadMix; searchOnly?: boolean } = {}) {
  const random = randomSource(options.seed);
  const mix = options.mix ?? REALISTIC_MIX;
  let typing: string[] = [];

  const filters = () => {
    const parts: string[] = [];
    if (random.chance(0.4)) parts.push(...facetValues("category", CATEGORIES, random));
    if (random.chance(0.35)) parts.push(...facetValues("band", BRANDS, random));
    if (random.chance(0.3)) parts.push(`range=${5 * (1 + random.int(40))}`);
    if (random.chance(0.5)) parts.push(`sort=${random.pick(SORTS).value}`);
    return parts;
  };

  const search = () => {
    if (typing.length === 0) {
      const chosen = random.pick(SEARCH_WORDS);
      const word = random.chance(MISSPELT_SHARE) ? misspelt(chosen, random) : chosen;
      typing = Array.from({ length: word.length - 1 }, (_, i) => word.slice(0, i + 2));
    }
    const prefix = typing.shift() as string;
    const parts = [`search=${encodeURIComponent(prefix)}`];
    if (random.chance(0.2)) parts.push(...filters());
    return parts.join("&");
  };

  const browse = () => {
    const parts = filters();
    // Most shoppers stay on the first pages; some go deep.
    const page = random.chance(0.7) ? 1 + random.int(3) : 1 + random.int(200);
    if (page > 1) parts.push(`page=${page}`);
    return parts.join("&");
  };

  return () => {
    if (options.searchOnly) return search();
    const roll = random.next();
    if (roll < mix.popular) return random.pick(POPULAR);
    if (roll < mix.popular + mix.search) return search();
    return browse();
  };
}

/** The JSON API under the realistic mix: each query as /all-products, and a share as /counts too. */
export function apiPaths(options: { seed?: number; searchOnly?: boolean } = {}) {
  const next = catalogQueries(options);
  let pendingCount: string | null = null;
  return () => {
    if (pendingCount !== null) {
      const path = pendingCount;
      pendingCount = null;
      return path;
    }
    const query = next();
    // The shop page asks for the page and its count together.
    pendingCount = `/counts${query ? `?${query}` : ""}`;
    return `/all-products${query ? `?${query}` : ""}`;
  };
}

/** Of shop pages, this share is a product's own page. */
const PRODUCT_PAGE_SHARE = 1 / 7;

/**
 * Server-rendered pages under the realistic mix: shop listings and, one in
 * seven, a product's page (`productPages`: their addresses; a few are opened
 * far more than the others, as best sellers are).
 */
export function shopPagePaths(options: { seed?: number; productPages?: readonly string[] } = {}) {
  const next = catalogQueries(options);
  const random = randomSource((options.seed ?? 1) + 1);
  const productPages = options.productPages ?? [];
  return () => {
    if (productPages.length > 0 && random.chance(PRODUCT_PAGE_SHARE)) {
      // Squared: the first products of the list are opened much more often.
      return productPages[Math.floor(random.next() ** 2 * productPages.length)] as string;
    }
    const query = next();
    return query ? `/?${query}` : "/";
  };
}

/**
 * Shoppers' addresses (X-Forwarded-For, the shop trusting one proxy), each
 * request from one of `shoppers` at random: at the benchmark's thousands of
 * requests a second, each shopper still sends about one a second, within the
 * per-client limit on searches as a person is.
 */
export function shopperAddresses(options: { seed?: number; shoppers?: number } = {}) {
  const random = randomSource((options.seed ?? 1) + 2);
  const shoppers = options.shoppers ?? 5000;
  return () => {
    const shopper = random.int(shoppers);
    return `198.18.${shopper >> 8}.${shopper & 255}`;
  };
}

/** The share of distinct URLs among the first `count` a workload sends: how little of it a cache can answer. */
export function distinctShare(next: () => string, count = 20_000): number {
  const seen = new Set<string>();
  for (let sent = 0; sent < count; sent++) seen.add(next());
  return seen.size / count;
}

export interface RunInfo {
  command: string;
  startedAt: string;
  commit: string;
  machine: string;
  loadAverage: string;
}

/** What every section of RESULTS.md records about its run. */
export function runInfo(command: string): RunInfo {
  const git = (args: string) => {
    try {
      return execSync(`git ${args}`, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    } catch {
      return "";
    }
  };
  const commit = git("rev-parse --short HEAD") || "unknown";
  // The results file is rewritten by the run itself: it does not make the code under test differ.
  const dirty = git("status --porcelain --untracked-files=no -- . :!bench/RESULTS.md") !== "";
  const cpus = os.cpus();
  return {
    command,
    startedAt: new Date().toISOString(),
    commit: dirty ? `${commit} + uncommitted changes` : commit,
    machine: `${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    loadAverage: os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(" / "),
  };
}

export function runInfoLine(info: RunInfo): string {
  return `Command: \`${info.command}\`. Run ${info.startedAt} at commit \`${info.commit}\` on ${info.machine}; load average (1/5/15 min) at the start: ${info.loadAverage}.`;
}

/** Replaces (or appends) the section between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceSection(document: string, name: string, section: string): string {
  const marked = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`);
  const block = `<!-- ${name}:start -->\n${section.trim()}\n<!-- ${name}:end -->`;
  return marked.test(document) ? document.replace(marked, block) : `${document.trimEnd()}\n\n${block}\n`;
}
