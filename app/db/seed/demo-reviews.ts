/**
 * The demo catalogue's reviews (docs/decisions/0033): written by demo buyers,
 * each of whom bought the product and had it shipped, so every demo rating is
 * the mean of real reviews, as a shop's would be. Plain data and arithmetic:
 * no database here (seed.server.ts writes it).
 */

export interface DemoBuyer {
  /** The account's id: `demo-buyer-<n>`. */
  id: string;
  name: string;
  /** At `.invalid` (RFC 2606): no mail is ever sent there, and nobody can sign up with it. */
  email: string;
}

const BUYER_NAMES = [
  "Maya Rossi",
  "Tom Becker",
  "Aiko Tanaka",
  "Sam Okafor",
  "Lena Novak",
  "Diego Marín",
  "Priya Nair",
  "Olle Lindqvist",
  "Grace Kim",
  "Jonas Weber",
  "Fatima Haddad",
  "Noah Clarke",
] as const;

export const DEMO_BUYERS: readonly DemoBuyer[] = BUYER_NAMES.map((name, at) => ({
  id: `demo-buyer-${at + 1}`,
  name,
  email: `demo-buyer-${at + 1}@backline.invalid`,
}));

/** What a demo buyer writes, by the stars they give. */
const WORDS: Readonly<Record<number, readonly { title: string; body: string }[]>> = {
  5: [
    {
      title: "Exactly what I hoped for",
      body: "Well made and does the job without fuss. I would buy it again.",
    },
    { title: "Love it", body: "Arrived quickly, works perfectly, and it looks better than in the pictures." },
    { title: "Great value", body: "Solid build for the price. Using it every day." },
  ],
  4: [
    {
      title: "Very good",
      body: "Does what it says. One small thing could be better, but I am happy with it.",
    },
    { title: "Happy with it", body: "Good quality overall; the instructions could be clearer." },
    { title: "Recommended", body: "Works well after a few weeks of use. Nearly perfect." },
  ],
  3: [
    { title: "It is fine", body: "Does the job, nothing more. I expected a little more for the price." },
    { title: "Average", body: "Some things are good, some are not. Decent for occasional use." },
  ],
  2: [{ title: "Not for me", body: "It works, but it felt flimsy and I would not buy it again." }],
  1: [{ title: "Disappointed", body: "It stopped working properly after a week." }],
};

export interface DemoReview {
  buyer: DemoBuyer;
  rating: number;
  title: string;
  body: string;
}

/**
 * Ratings of 1 to 5 whose mean, to one decimal, is `rating` (a demo
 * product's), from as many buyers as it takes (`wanted` or the next count
 * that can make that mean, at most the buyers there are), with some spread.
 */
function ratingsWithMean(rating: number, wanted: number): number[] {
  for (let count = wanted; count <= DEMO_BUYERS.length; count++) {
    const sum = Math.round(rating * count);
    if (Math.round((sum / count) * 10) !== Math.round(rating * 10) || sum < count || sum > 5 * count)
      continue;
    const base = Math.floor(sum / count);
    const ratings = Array.from({ length: count }, (_, at) => (at < sum - base * count ? base + 1 : base));
    // A little spread, the sum kept: one buyer a star kinder, another a star harsher.
    const kinder = ratings.findIndex((stars) => stars < 5);
    const harsher = ratings.findLastIndex((stars, at) => stars > 1 && at !== kinder);
    if (count >= 6 && kinder !== -1 && harsher !== -1) {
      ratings[kinder] = (ratings[kinder] as number) + 1;
      ratings[harsher] = (ratings[harsher] as number) - 1;
    }
    return ratings.sort((a, b) => b - a);
  }
  throw new Error(`no ${DEMO_BUYERS.length} ratings have the mean ${rating}`);
}

/**
 * The reviews of the demo product at `position` (oldest first) rated
 * `rating`: which buyer gives what. A demo product rated 0 is one nobody
 * has reviewed yet: none.
 */
export function demoReviewsOf(position: number, rating: number): DemoReview[] {
  if (!(rating > 0)) return [];
  const ratings = ratingsWithMean(rating, 5 + (position % 6));
  return ratings.map((stars, at) => {
    const buyer = DEMO_BUYERS[(position + at * 5) % DEMO_BUYERS.length] as DemoBuyer;
    const choices = WORDS[stars] as readonly { title: string; body: string }[];
    const words = choices[(position + at) % choices.length] as { title: string; body: string };
    return { buyer, rating: stars, ...words };
  });
}
