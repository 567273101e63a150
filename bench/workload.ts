/**
 * The realistic mixed workload the headline figures come from, and the run
 * information every section of bench/RESULTS.md starts with.
 *
 * Real traffic is not one URL repeated inside the 10-second cache: a tenth of
 * listings are a few popular ones (the first page, a popular category), the
 * rest fresh combinations, as the auditor's workload of issue 32 had them —
 * several brands or categories ticked at once, price caps, in stock only,
 * every sort (Top Rated among them), pages deep in a listing, and searches of
 * one or two words as shoppers type them, a share misspelt ("blendr"). The
 * JSON API is called as the shop's pages call it: each listing shown is
 * `/all-products` with its `/counts`, and `/facets` when the filter panel is
 * open; typing asks `/suggestions` whenever the typist pauses; paging or
 * re-sorting asks only the listing again. Shop pages add product pages (one
 * in seven), as shoppers open cards. Every request comes from one of many
 * shoppers' addresses, as a shop behind a proxy sees them (TRUST_PROXY=1).
 * `distinctShare` says how often a URL repeats; everything is deterministic
 * by seed.
 */
import { execSync } from "node:child_process";
import os from "node:os";
import {
  DEMO_BRANDS as BRANDS,
  DEMO_CATEGORIES as CATEGORIES,
} from "../app/db/seed/demo-brands-and-categories";
import { DEMO_PRODUCTS } from "../app/db/seed/demo-catalog";
import { SORTS } from "../app/features/catalog/core/catalog-vocabulary";
import { MODEL_WORDS } from "../scripts/catalog/synthetic-catalog";
import { type RandomSource, randomSource } from "../tests/support/random-source";

const BRAND_WORDS = new Set(BRANDS.map((brand) => brand.label.toLowerCase()));

/** A name's words as shoppers type them: lower case, 3+ letters, or a number. */
const wordsOf = (name: string) =>
  name
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/[^a-z0-9]/g, ""))
    .filter((word) => /^[a-z]{3,}$|^[0-9]+$/.test(word));

/**
 * Each product's words without its brand's, as the synthetic catalogue re-brands them
 * (scripts/catalog/synthetic-catalog.ts): what shoppers type, mostly.
 */
const PRODUCT_WORDS = DEMO_PRODUCTS.map((product) =>
  wordsOf(product.name).filter((word) => !BRAND_WORDS.has(word)),
).filter((words) => words.length > 1);
const MODELS = MODEL_WORDS.map((word) => word.toLowerCase());

/** The listings every shopper opens: a twentieth of visits start at one of these. */
const POPULAR = [
  "",
  "category=fitness",
  "sort=asc",
  "band=blendMaster",
  "category=electronics&sort=dsc",
  "sort=rating",
] as const;

export interface WorkloadMix {
  popular: number;
  search: number;
  browse: number;
}

/**
 * A twentieth of visits popular; of the rest, a little under two thirds browsing with filters, the
 * others searching. With the shares below, about 78 % of the API mix's first 20,000 URLs are
 * distinct (82 % of its listings alone): the audit of issue 32 found its 0.55× loss with 80 % fresh.
 */
export const REALISTIC_MIX: WorkloadMix = { popular: 0.05, search: 0.35, browse: 0.6 };

/** Of the words typed, this share has a typo. */
const MISSPELT_SHARE = 0.2;

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

/**
 * What a shopper types in the search box: a word of a product's name, two
 * of them in order, or one with a model ("blender pro", "speaker 300"), as
 * the synthetic catalogue's names are made; a share of words misspelt.
 */
function typedSearch(random: RandomSource): string {
  const words = random.pick(PRODUCT_WORDS);
  const roll = random.next();
  const at = random.int(words.length - 1);
  const phrase =
    roll < 0.25
      ? [random.pick(words)]
      : roll < 0.6
        ? [words[at] as string, words[at + 1] as string]
        : roll < 0.8
          ? [random.pick(words), random.pick(MODELS)]
          : [random.pick(words), String(100 * (1 + random.int(9)))];
  return phrase
    .map((word) => (word.length > 3 && random.chance(MISSPELT_SHARE) ? misspelt(word, random) : word))
    .join(" ");
}

/** Every prefix of what is typed from its second letter on, as a search box sees it grow. */
const prefixesOf = (typed: string) =>
  Array.from({ length: typed.length - 1 }, (_, i) => typed.slice(0, i + 2)).filter(
    (prefix) => !prefix.endsWith(" "),
  );

/**
 * One value of a facet or, a shopper ticking several boxes, two or three,
 * in the order the shop keys them (sorted), so equal choices are equal URLs.
 */
function facetValues(name: string, values: readonly { value: string }[], random: RandomSource): string[] {
  const count = random.chance(0.5) ? 1 : random.chance(0.6) ? 2 : 3;
  const chosen = new Set(Array.from({ length: count }, () => random.pick(values).value));
  return [...chosen].sort().map((value) => `${name}=${encodeURIComponent(value)}`);
}

/** A listing asked for: its filters (what /counts and /facets take too) and its order and page. */
interface Listing {
  filters: string[];
  sort: string[];
  page: number;
}

const queryOf = (parts: readonly string[]) => parts.join("&");
const listingQuery = ({ filters, sort, page }: Listing) =>
  queryOf([...filters, ...sort, ...(page > 1 ? [`page=${page}`] : [])]);

/** Filters a shopper sets: categories and brands (often several), a price cap, in stock only; at least one. */
function filters(random: RandomSource): string[] {
  const parts: string[] = [];
  if (random.chance(0.7)) parts.push(...facetValues("category", CATEGORIES, random));
  if (random.chance(0.6)) parts.push(...facetValues("band", BRANDS, random));
  // A cap from the slider (steps of 5) or typed in whole dollars; a shopper who chose nothing else sets one.
  if (random.chance(0.65) || parts.length === 0) {
    parts.push(`range=${random.chance(0.5) ? 5 * (1 + random.int(40)) : 5 + random.int(196)}`);
  }
  if (random.chance(0.15)) parts.push("inStock=1");
  return parts;
}

/** An order other than the default, most of the time; Top Rated as often as any. */
function sortOf(random: RandomSource): string[] {
  return random.chance(0.65) ? [`sort=${random.pick(SORTS).value}`] : [];
}

/** The page: most start on the first, a third further on, some deep. */
function pageOf(random: RandomSource): number {
  const roll = random.next();
  return roll < 0.65 ? 1 : roll < 0.85 ? 2 + random.int(4) : 6 + random.int(195);
}

const browsing = (random: RandomSource): Listing => ({
  filters: filters(random),
  sort: sortOf(random),
  page: pageOf(random),
});

/** A search submitted: what was typed, with filters now and then. */
const searching = (typed: string, random: RandomSource): Listing => ({
  filters: [`search=${encodeURIComponent(typed)}`, ...(random.chance(0.35) ? filters(random) : [])],
  sort: sortOf(random),
  page: random.chance(0.8) ? 1 : pageOf(random),
});

/** A popular listing, split into its filters and its order. */
function popular(random: RandomSource): Listing {
  const parts = random.pick(POPULAR).split("&").filter(Boolean);
  const sort = parts.filter((part) => part.startsWith("sort="));
  return { filters: parts.filter((part) => !sort.includes(part)), sort, page: 1 };
}

/**
 * An endless stream of listing queries (query strings without "?") in the
 * realistic mix: popular listings, browsing with filters, and searches as
 * submitted. With `searchOnly`, every prefix of what shoppers type instead,
 * each a listing, as a search-as-you-type client asks (the search bound's
 * workload).
 */
export function catalogQueries(options: { seed?: number; mix?: WorkloadMix; searchOnly?: boolean } = {}) {
  const random = randomSource(options.seed);
  const mix = options.mix ?? REALISTIC_MIX;
  let typing: string[] = [];
  return () => {
    if (options.searchOnly) {
      if (typing.length === 0) typing = prefixesOf(typedSearch(random));
      const search = [`search=${encodeURIComponent(typing.shift() as string)}`];
      return queryOf(random.chance(0.2) ? [...search, ...filters(random), ...sortOf(random)] : search);
    }
    const roll = random.next();
    if (roll < mix.popular) return listingQuery(popular(random));
    if (roll < mix.popular + mix.search) return listingQuery(searching(typedSearch(random), random));
    return listingQuery(browsing(random));
  };
}

/** One request of the API mix: its path, and the shopper's address it comes from (X-Forwarded-For). */
export interface ApiRequest {
  path: string;
  address: string;
}

/** The JSON API's calls, by path, that a stream may be limited to. */
export type ApiCall = "/all-products" | "/counts" | "/facets" | "/suggestions";

/** Of listings shown, this share also asks /facets (the filter panel open, as on a wide screen). */
const FACETS_SHARE = 0.5;
/**
 * Of the prefixes typed from the third letter on, this share is asked for as /suggestions: the box
 * asks once typing pauses (search-box.tsx), and always for what was typed in full.
 */
const SUGGESTED_SHARE = 0.25;
/** After a listing, this share of shoppers pages on or re-sorts it, and again after that (the listing alone). */
const GOES_ON_SHARE = 0.6;

const pathOf = (call: ApiCall, query: string) => (query ? `${call}?${query}` : call);

/** One shopper's visit: what is typed (suggestions), the listing shown, and where they go from it. */
function visitCalls(random: RandomSource, mix: WorkloadMix): [ApiCall, string][] {
  const calls: [ApiCall, string][] = [];
  let listing: Listing;
  const roll = random.next();
  if (roll < mix.popular) listing = popular(random);
  else if (roll < mix.popular + mix.search) {
    const typed = typedSearch(random);
    for (const prefix of prefixesOf(typed)) {
      if (prefix === typed || (prefix.length > 2 && random.chance(SUGGESTED_SHARE))) {
        calls.push(["/suggestions", `search=${encodeURIComponent(prefix)}`]);
      }
    }
    listing = searching(typed, random);
  } else listing = browsing(random);
  calls.push(["/all-products", listingQuery(listing)], ["/counts", queryOf(listing.filters)]);
  if (random.chance(FACETS_SHARE)) calls.push(["/facets", queryOf(listing.filters)]);
  // Paging on or re-sorting keeps the filters: the count and the panel shown stay as they are.
  while (random.chance(GOES_ON_SHARE)) {
    listing = random.chance(0.7)
      ? { ...listing, page: listing.page + 1 }
      : { ...listing, sort: sortOf(random) };
    calls.push(["/all-products", listingQuery(listing)]);
  }
  return calls;
}

/**
 * The JSON API as the shop's own pages call it, visit by visit (module
 * comment): every visit from one of `shoppers` addresses in 198.18.0.0/15,
 * all its requests from that one. `only` keeps the calls named
 * (`["/all-products"]`: listings only) in the same order. Deterministic by `seed`.
 */
export function apiRequests(
  options: { seed?: number; shoppers?: number; only?: readonly ApiCall[]; mix?: WorkloadMix } = {},
): () => ApiRequest {
  const random = randomSource(options.seed);
  const mix = options.mix ?? REALISTIC_MIX;
  const shoppers = Math.min(options.shoppers ?? 20_000, 2 ** 17);
  const keep = new Set<ApiCall>(options.only ?? ["/all-products", "/counts", "/facets", "/suggestions"]);
  const queued: ApiRequest[] = [];
  return () => {
    while (queued.length === 0) {
      const shopper = random.int(shoppers);
      const address = `198.${18 + (shopper >> 16)}.${(shopper >> 8) & 255}.${shopper & 255}`;
      for (const [call, query] of visitCalls(random, mix)) {
        if (keep.has(call)) queued.push({ path: pathOf(call, query), address });
      }
    }
    return queued.shift() as ApiRequest;
  };
}

/**
 * The JSON API's paths under the realistic mix (apiRequests, without the
 * addresses). With `searchOnly`, search as you type as a listing client does
 * it: every prefix as /all-products, each with its /counts.
 */
export function apiPaths(options: { seed?: number; searchOnly?: boolean; only?: readonly ApiCall[] } = {}) {
  if (!options.searchOnly) {
    const next = apiRequests(options);
    return () => next().path;
  }
  const next = catalogQueries(options);
  let pendingCount: string | null = null;
  return () => {
    if (pendingCount !== null) {
      const path = pendingCount;
      pendingCount = null;
      return path;
    }
    const query = next();
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
