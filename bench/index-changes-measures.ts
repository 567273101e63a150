/**
 * What \`npm run bench -- index-changes\` reads of a running shop: the log
 * line of a revision applied, its CPU and event loop (bench/event-loop-probe.mjs),
 * and its cheapest product.
 */
import type { ShopProcess } from "../tests/support/shop-process";

export const appliedAt = (revision: number) =>
  new RegExp(`"revision":${revision},.*"msg":"catalogue changes applied to the index"`);

/** Counts each process's probe lines: the next one it prints is the CPU since the one before. */
export function probes(shops: ShopProcess[]) {
  const samples = shops.map(() => 0);
  return async (at: number): Promise<{ cpuMs: number; max: number }> => {
    const shop = shops[at] as ShopProcess;
    samples[at] = (samples[at] ?? 0) + 1;
    shop.kill("SIGUSR2");
    const pattern = new RegExp(`"probe":"event-loop","sample":${samples[at]}\\b`);
    return JSON.parse(await shop.waitForOutput(pattern, 10_000)) as { cpuMs: number; max: number };
  };
}

export interface Served {
  /** From the commit until the process's answer showed the change. */
  servedMs: number;
  /** What the process logged: reading the changes and laying them over its index (or reading it). */
  appliedMs: number;
  /** The process's CPU from the commit to its answer (the one request included). */
  cpuMs: number;
  /** The longest the process's event loop was held meanwhile. */
  loopMaxMs: number;
}

/** The cheapest product, as the process's index answers it now. */
export async function cheapest(shop: ShopProcess): Promise<{ id: number; price: number }> {
  const response = await fetch(`${shop.url}/all-products?sort=asc&size=1`);
  const [first] = (await response.json()) as { id: number; price: number }[];
  if (!first) throw new Error("the catalogue answered no product");
  return first;
}

export type Probe = ReturnType<typeof probes>;
