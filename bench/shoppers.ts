/**
 * Guest shoppers for the cart and checkout benchmark (bench/shop.ts): each
 * one its own client address and its own cart cookie, adding a basket of
 * products one click at a time and later checking it out with a fresh
 * Idempotency-Key. Autocannon cannot carry a cookie from one answer to the
 * same shopper's next request, nor hand each checkout a cart of its own, so
 * this is a small closed-loop client of its own: `connections` loops, each
 * sending its next request as soon as the previous one is answered, as
 * autocannon does, over keep-alive connections.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import { performance } from "node:perf_hooks";
import { type RandomSource, randomSource } from "../tests/support/random-source";
import { SHOPPER_ADDRESS } from "../tests/support/shopper";

/** One click on "Add to cart". */
export interface Add {
  productId: number;
  quantity: number;
}

export interface Shopper {
  /** X-Forwarded-For: the shop trusts one proxy (TRUST_PROXY=1), so each shopper is its own client. */
  address: string;
  /** The `backline_cart=…` pair the shop's first answer set; null before the first add. */
  cookie: string | null;
  adds: Add[];
}

/** How a basket is made: its products drawn from `productIds`, and half of baskets holding one of `hotIds`. */
export interface BasketMix {
  productIds: readonly number[];
  hotIds: readonly number[];
  /** The share of baskets with one of the hot products (the contention on their stock rows). */
  hotShare: number;
  seed: number;
}

/**
 * An endless stream of new guest shoppers, each with the clicks they will
 * make: 1 to 4 products (most baskets small), a quantity of 1 mostly, and now
 * and then the same product added twice (the cart's "add more" path).
 */
export function shopperStream(mix: BasketMix): () => Shopper {
  const random = randomSource(mix.seed);
  let counter = 0;
  // Squared: a product early in this shuffled list is picked far more often, as best sellers are.
  const favourites = shuffled(mix.productIds, random);
  const catalogueProduct = () => favourites[Math.floor(random.next() ** 2 * favourites.length)] as number;
  const quantity = () => (random.chance(0.8) ? 1 : random.chance(0.75) ? 2 : 3);
  return () => {
    counter++;
    // 198.18.0.0/15, the range set aside for benchmarks: 131,072 distinct shoppers before one repeats.
    const address = `198.${18 + ((counter >> 16) & 1)}.${(counter >> 8) & 255}.${counter & 255}`;
    const size = random.chance(0.4) ? 1 : random.chance(0.5) ? 2 : random.chance(0.67) ? 3 : 4;
    const products = new Set<number>();
    if (random.chance(mix.hotShare)) products.add(random.pick(mix.hotIds));
    while (products.size < size) products.add(catalogueProduct());
    const adds = [...products].map((productId) => ({ productId, quantity: quantity() }));
    if (random.chance(0.1)) adds.push({ productId: (adds[0] as Add).productId, quantity: 1 });
    return { address, cookie: null, adds };
  };
}

function shuffled<T>(items: readonly T[], random: RandomSource): T[] {
  const copy = [...items];
  for (let at = copy.length - 1; at > 0; at--) {
    const other = random.int(at + 1);
    [copy[at], copy[other]] = [copy[other] as T, copy[at] as T];
  }
  return copy;
}

/** The units of each product a shopper's clicks put in the cart: what their order must hold. */
export function basketOf(shopper: Shopper): Map<number, number> {
  const units = new Map<number, number>();
  for (const { productId, quantity } of shopper.adds) {
    units.set(productId, (units.get(productId) ?? 0) + quantity);
  }
  return units;
}

/** What every run of requests measures: answers per second, latencies in ms, how many requests. */
export interface Throughput {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
}

/** What one run of requests measured. */
export interface Figures extends Throughput {
  seconds: number;
  /** Requests with no answer (refused, reset, or none within 10 s). */
  errors: number;
  /** Answers other than the one expected (200 for an add, 201 for a checkout), by status. */
  unexpected: Record<number, number>;
  non2xx: number;
  serverErrors: number;
}

/**
 * Latencies and answers of one measured run. Every latency is kept (a run is
 * tens of thousands of requests) so the percentiles are exact; failures are
 * counted, and the first few kept with what the shop said.
 */
export class Tally {
  private readonly latencies: number[] = [];
  private readonly statuses = new Map<number, number>();
  private errors = 0;
  private started = performance.now();
  private ended = this.started;
  readonly failures: string[] = [];
  failureCount = 0;

  constructor(private readonly expected: number) {}

  start() {
    this.started = performance.now();
  }

  stop() {
    this.ended = performance.now();
  }

  record(answer: Answer) {
    if (answer.status === 0) this.errors++;
    else {
      this.latencies.push(answer.ms);
      this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
    }
  }

  fail(message: string) {
    this.failureCount++;
    if (this.failures.length < 10) this.failures.push(message);
  }

  count(status: number): number {
    return this.statuses.get(status) ?? 0;
  }

  figures(): Figures {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
    const seconds = (this.ended - this.started) / 1000;
    const unexpected = Object.fromEntries([...this.statuses].filter(([status]) => status !== this.expected));
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return {
      rps: Math.round(sorted.length / seconds),
      p50: round(at(0.5)),
      p90: round(at(0.9)),
      p99: round(at(0.99)),
      max: round(sorted.at(-1) ?? 0),
      requests: sorted.length + this.errors,
      seconds: round(seconds),
      errors: this.errors,
      unexpected,
      non2xx: [...this.statuses].filter(([status]) => status >= 300).reduce((sum, [, n]) => sum + n, 0),
      serverErrors: [...this.statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0),
    };
  }
}

/** An answer: status 0 when none came (the error is in `body`). */
export interface Answer {
  status: number;
  body: string;
  setCookie: string[];
  ms: number;
}

/**
 * The shop as a browser's `fetch` from its own pages calls it: JSON, the
 * shop's own Origin and Sec-Fetch-Site (so every change passes the
 * cross-site guard as a real one does), over `connections` keep-alive sockets.
 */
export function shopClient(baseUrl: string, connections: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const { hostname, port } = new URL(baseUrl);
  const origin = new URL(baseUrl).origin;

  function send(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = performance.now();
    return new Promise<Answer>((resolve) => {
      const request = http.request(
        {
          agent,
          hostname,
          port,
          method,
          path,
          timeout: 10_000,
          headers: {
            Accept: "application/json",
            Origin: origin,
            "Sec-Fetch-Site": "same-origin",
            ...(payload === undefined
              ? {}
              : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) }),
            ...headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString("utf8"),
              setCookie: response.headers["set-cookie"] ?? [],
              ms: performance.now() - started,
            }),
          );
        },
      );
      request.on("timeout", () => request.destroy(new Error("no answer within 10 s")));
      request.on("error", (error) =>
        resolve({ status: 0, body: error.message, setCookie: [], ms: performance.now() - started }),
      );
      request.end(payload);
    });
  }

  const identity = (shopper: Shopper) => ({
    "X-Forwarded-For": shopper.address,
    ...(shopper.cookie ? { Cookie: shopper.cookie } : {}),
  });

  return {
    /** POST /api/cart/lines; keeps the cart cookie the shop sets. */
    async add(shopper: Shopper, add: Add): Promise<Answer> {
      const answer = await send("POST", "/api/cart/lines", identity(shopper), add);
      const cookie = answer.setCookie.find((value) => value.startsWith("backline_cart="));
      if (cookie) shopper.cookie = cookie.split(";")[0] as string;
      return answer;
    },
    /** POST /api/checkout of the shopper's cart, with a key of its own. */
    checkout(shopper: Shopper): Promise<Answer> {
      const headers = { ...identity(shopper), "Idempotency-Key": randomUUID() };
      return send("POST", "/api/checkout", headers, {
        email: `shopper-${shopper.address.replaceAll(".", "-")}@example.com`,
        shippingAddress: SHOPPER_ADDRESS,
        shippingMethod: "standard",
        paymentMethod: "cash-on-delivery",
      });
    },
    close: () => agent.destroy(),
  };
}

export type ShopClient = ReturnType<typeof shopClient>;
