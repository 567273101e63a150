import { inArray, sql } from "drizzle-orm";
import type { CurrencyCode } from "~/commerce/money";
import { shopMoneyOf } from "~/commerce/shop-money.server";
import type { Database } from "~/db/client.server";
import { shopSettings } from "~/db/schema";
import { type Actor, changedFields, recordChange } from "./audit-log.server";

/**
 * The settings an owner changes at /admin/settings (docs/decisions/0029):
 * the shop's currency and locale, what shipping costs, the bank details shown
 * for a transfer, the stock level at which a product counts as low, and the
 * one from which shoppers are told how many are left. Each is a row of
 * `shop_settings`; without one, the value the configuration gives
 * (SHOP_CURRENCY, SHIPPING_STANDARD, SHOP_BANK_DETAILS, SHOP_FEW_LEFT_AT, …)
 * stands.
 */
export interface ShopSettings {
  /** What prices, totals and card payments are in (ISO 4217); an order keeps the one it was placed in. */
  currency: CurrencyCode;
  /** How amounts are written (de-DE: "12,50 €"). */
  locale: string;
  standardShippingCents: number;
  /** Standard shipping is free from this subtotal. */
  freeShippingFromCents: number;
  expressShippingCents: number;
  /** Where a bank transfer is paid: one line per part ("Backline Ltd.", "IBAN: …"). */
  bankDetails: string[];
  /** A product with this many units or fewer is low on stock (the back office's low-stock view). */
  lowStockAt: number;
  /** Shoppers read "Only N left" for a product with this many units or fewer (0: never). */
  fewLeftAt: number;
}

const NAMES = [
  "currency",
  "locale",
  "standardShippingCents",
  "freeShippingFromCents",
  "expressShippingCents",
  "bankDetails",
  "lowStockAt",
  "fewLeftAt",
] as const satisfies readonly (keyof ShopSettings)[];

/** How long a process reuses the settings it read: a change shows everywhere within this. */
const FRESH_FOR_MS = 1_000;

export interface ShopSettingsStore {
  /** The configuration's values: what stands until an owner saves, and while the database cannot be read. */
  readonly defaults: ShopSettings;
  /** The settings now (read at most once a second per process). */
  current(): Promise<ShopSettings>;
  /** Saves what changed, with its audit entry, in one transaction; the settings after. */
  save(actor: Actor, changes: Partial<ShopSettings>): Promise<ShopSettings>;
}

export function createShopSettings(db: Database, defaults: ShopSettings): ShopSettingsStore {
  let cached: { settings: ShopSettings; readAt: number } | undefined;

  async function read(reader: Pick<Database, "select"> = db): Promise<ShopSettings> {
    const rows = await reader
      .select({ name: shopSettings.name, value: shopSettings.value })
      .from(shopSettings)
      .where(inArray(shopSettings.name, [...NAMES]));
    const settings: ShopSettings = { ...defaults };
    for (const row of rows) {
      (settings as unknown as Record<string, unknown>)[row.name] = row.value;
    }
    // What the form shows; pages use the currency once the catalogue is in it (commerce/shop-money.server.ts).
    return { ...settings, ...shopMoneyOf(settings, defaults) };
  }

  return {
    defaults,

    async current() {
      const now = Date.now();
      if (cached && now - cached.readAt < FRESH_FOR_MS) return cached.settings;
      const settings = await read();
      cached = { settings, readAt: now };
      return settings;
    },

    async save(actor, changes) {
      const saved = await db.transaction(async (tx) => {
        // One owner's save at a time: the "before" each entry records is what the other left.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('shop_settings'))`);
        const before = await read(tx);
        const diff = changedFields(
          before as unknown as Record<string, unknown>,
          changes as Record<string, unknown>,
        );
        if (!diff) return before;
        for (const [name, value] of Object.entries(diff.after)) {
          await tx
            .insert(shopSettings)
            .values({ name, value })
            .onConflictDoUpdate({ target: shopSettings.name, set: { value, updatedAt: new Date() } });
        }
        await recordChange(tx, actor, {
          action: "settings.changed",
          subject: "settings",
          subjectName: "the shop's settings",
          ...diff,
        });
        return { ...before, ...(diff.after as Partial<ShopSettings>) };
      });
      cached = { settings: saved, readAt: Date.now() };
      return saved;
    },
  };
}
