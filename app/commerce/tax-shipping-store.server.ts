import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { shopSettings } from "~/db/schema";
import { type Actor, recordChange } from "~/utils/audit-log.server";
import type { ShopSettings } from "~/utils/shop-settings.server";
import { setupChanges } from "./tax-shipping-changes";
import { everywhereSetup, type TaxShippingSetup } from "./tax-shipping-setup";

/**
 * The shop's tax and shipping setup (tax-shipping-setup.ts), kept as one row
 * of `shop_settings` beside the other settings: replaced whole, as the API
 * and the settings page send it, with its audit entry in the same
 * transaction. A shop that has saved none is set up as it charged before:
 * no tax, its standard and express prices everywhere (everywhereSetup).
 */

/** The settings row that holds it. */
const SETTING = "taxAndShipping";

/** How long a process reuses the setup it read: a change shows at every checkout within this. */
const FRESH_FOR_MS = 1_000;

export interface TaxShippingStore {
  /** The setup now (read at most once a second per process). */
  current(): Promise<TaxShippingSetup>;
  /** Replaces the setup, writing what changed to the activity log; the setup after. */
  replace(actor: Actor, setup: TaxShippingSetup): Promise<TaxShippingSetup>;
}

/** The setup of a shop that saved none, from its shipping settings. */
const fromSettings = (settings: ShopSettings): TaxShippingSetup =>
  everywhereSetup({
    standard: settings.standardShippingCents,
    freeFrom: settings.freeShippingFromCents,
    express: settings.expressShippingCents,
  });

export function createTaxShippingStore(
  db: Database,
  settings: { current(): Promise<ShopSettings> },
): TaxShippingStore {
  // The saved setup, or null for none: a shop without one follows its shipping settings as they change.
  let cached: { saved: TaxShippingSetup | null; readAt: number } | undefined;

  async function readSaved(reader: Pick<Database, "select">): Promise<TaxShippingSetup | null> {
    const [row] = await reader
      .select({ value: shopSettings.value })
      .from(shopSettings)
      .where(eq(shopSettings.name, SETTING));
    return row ? (row.value as TaxShippingSetup) : null;
  }

  async function read(reader: Pick<Database, "select">): Promise<TaxShippingSetup> {
    return (await readSaved(reader)) ?? fromSettings(await settings.current());
  }

  return {
    async current() {
      const now = Date.now();
      if (!cached || now - cached.readAt >= FRESH_FOR_MS)
        cached = { saved: await readSaved(db), readAt: now };
      return cached.saved ?? fromSettings(await settings.current());
    },

    async replace(actor, setup) {
      await db.transaction(async (tx) => {
        // The settings' lock: one owner's save at a time, so each entry's "before" is what the other left.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('shop_settings'))`);
        const before = await read(tx);
        if (setupChanges(before, setup).length === 0) return;
        await tx
          .insert(shopSettings)
          .values({ name: SETTING, value: setup })
          .onConflictDoUpdate({ target: shopSettings.name, set: { value: setup, updatedAt: new Date() } });
        await recordChange(tx, actor, {
          action: "tax-shipping.replaced",
          subject: "settings:tax-and-shipping",
          subjectName: "tax and shipping",
          // Whole: the activity log says what changed (setupChanges), and an owner can see any earlier setup.
          before,
          after: setup,
        });
      });
      cached = { saved: setup, readAt: Date.now() };
      return setup;
    },
  };
}
