import { formatAmount, shopMoney } from "~/commerce/shop-money.server";
import { setupChanges } from "~/commerce/tax-shipping-changes";
import type { TaxShippingSetup } from "~/commerce/tax-shipping-setup";

/** An amount an entry kept (whole minor units; entries name no currency): in the shop's currency. */
const formatCents = (minor: number) => formatAmount(minor, shopMoney().currency);

/**
 * The audit log's entries as sentences an owner reads at /admin/activity:
 * "ada@example.com cancelled order BL-7Q4K9 and put 2 × Steel kettle (SKU
 * KT-1) back in stock." Each entry names its subject as it was called when
 * the change was made (`subjectName`, written with the change:
 * docs/decisions/0029); entries written before names were kept, and values
 * of shapes this file does not know, still read as words — never as
 * "[object Object]" or a bare "—".
 */

/** An entry as the log holds it. */
export interface LoggedChange {
  /** The actor's email, or "command line". */
  who: string;
  action: string;
  subject: string;
  subjectName: string;
  before: unknown;
  after: unknown;
}

type Fields = Record<string, unknown>;

const asFields = (value: unknown): Fields =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Fields) : {};

/** "product:42" → "product 42", "person:ada@example.com" → "ada@example.com": an entry without a written name. */
function nameFromSubject(subject: string): string {
  const [kind, ...rest] = subject.split(":");
  const key = rest.join(":");
  if (!key)
    return kind === "settings" ? "the shop's settings" : kind === "catalog" ? "the catalogue" : subject;
  return kind === "person" ? key : `${kind} ${key}`;
}

/** "priceCents" → "price", "standardShippingCents" → "standard shipping", "sku" → "SKU". */
function fieldName(key: string): string {
  if (key === "sku") return "SKU";
  return key
    .replace(/Cents$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

/** "2 × Steel kettle (SKU KT-1)": a line put back or sold; "2 × product 42" when the entry kept no name. */
function lineText(line: Fields): string {
  const quantity = typeof line.quantity === "number" ? `${line.quantity} × ` : "";
  const name =
    typeof line.name === "string"
      ? `${line.name}${typeof line.sku === "string" && line.sku ? ` (SKU ${line.sku})` : ""}`
      : `product ${String(line.productId ?? "?")}`;
  return `${quantity}${name}`;
}

/** A value as words: money as the shop writes it, lists joined, long text cut. */
function valueText(key: string, value: unknown): string {
  if (value === undefined || value === null || value === "") return "nothing";
  if (key.endsWith("Cents") && typeof value === "number") return formatCents(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  let text: string;
  if (Array.isArray(value)) {
    text = value
      .map((item) => (item !== null && typeof item === "object" ? lineText(item as Fields) : String(item)))
      .join(", ");
  } else if (typeof value === "object") {
    text = Object.entries(value as Fields)
      .map(([inner, innerValue]) => `${fieldName(inner)} ${valueText(inner, innerValue)}`)
      .join(", ");
  } else {
    text = String(value);
  }
  return text.length > 120 ? `${text.slice(0, 119)}…` : text || "nothing";
}

/** "price from $12.50 to $9.99; stock from 10 to 12": what an edit changed, field by field. */
function changesText(before: unknown, after: unknown, leaveOut: string[] = []): string {
  const was = asFields(before);
  const now = asFields(after);
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter(
    (key) => !leaveOut.includes(key),
  );
  return keys
    .map((key) => {
      if (!(key in was)) return `${fieldName(key)} set to ${valueText(key, now[key])}`;
      if (!(key in now)) return `${fieldName(key)} was ${valueText(key, was[key])}`;
      return `${fieldName(key)} from ${valueText(key, was[key])} to ${valueText(key, now[key])}`;
    })
    .join("; ");
}

/** "The command line" for changes made with `npm run owner:add` or OWNER_EMAILS; the actor's email otherwise. */
function actorText(who: string): string {
  return who === "command line" ? "The command line" : who;
}

/** What a change did to `name`, after the actor: "changed Steel kettle (SKU KT-1): price from $12.50 to $9.99". */
function predicate(entry: LoggedChange, name: string): string {
  const before = asFields(entry.before);
  const after = asFields(entry.after);
  const [kind, verb] = entry.action.split(".");
  switch (entry.action) {
    case "product.created": {
      const price = typeof after.priceCents === "number" ? ` at ${formatCents(after.priceCents)}` : "";
      const stock = typeof after.stock === "number" ? `, ${after.stock} in stock` : "";
      return `added ${name}${price}${stock}`;
    }
    case "product.archived":
      return `archived ${name}: the shop no longer shows it`;
    case "product.restored":
      return `put ${name} back on sale`;
    case "product.deleted":
      return `deleted ${name}`;
    case "order.paid":
      return `marked ${name} paid`;
    case "order.shipped":
      return typeof after.trackingNumber === "string" && after.trackingNumber
        ? `marked ${name} shipped, tracking number ${after.trackingNumber}`
        : `marked ${name} shipped, with no tracking number`;
    case "order.cancelled": {
      const lines = Array.isArray(after.stockReturned) ? (after.stockReturned as Fields[]) : [];
      return lines.length > 0
        ? `cancelled ${name} and put ${lines.map(lineText).join(", ")} back in stock`
        : `cancelled ${name}`;
    }
    case "order.refunded": {
      const amount = typeof after.amountCents === "number" ? `${formatCents(after.amountCents)} of ` : "";
      const refund = typeof after.refundId === "string" ? ` (Stripe refund ${after.refundId})` : "";
      return `refunded ${amount}${name} to the card${refund}`;
    }
    case "person.role-changed":
      return `changed the role of ${name} from ${valueText("role", before.role)} to ${valueText("role", after.role)}`;
    case "review.hidden":
      return `hid ${name}${typeof after.reason === "string" ? `, saying “${after.reason}”` : ""}`;
    case "review.restored":
      return `showed ${name} again`;
    case "tax-shipping.replaced": {
      const changes = setupChanges(entry.before as TaxShippingSetup, entry.after as TaxShippingSetup);
      return `changed ${name}: ${changes.join("; ")}`;
    }
    case "catalog.imported": {
      const counts = [
        [after.added, "added"],
        [after.updated, "changed"],
        [after.removed, "removed"],
        [after.keptAsOrdered, "kept because orders name them"],
        [after.pictureProblems, "with a picture not read"],
      ]
        .filter(([number]) => typeof number === "number" && number > 0)
        .map(([number, what]) => `${number} ${what}`);
      return `imported a catalogue file (products: ${counts.length > 0 ? counts.join(", ") : "none changed"})`;
    }
  }
  if ((kind === "brand" || kind === "category") && verb === "added") return `added ${name}`;
  if ((kind === "brand" || kind === "category") && verb === "moved") {
    return `moved ${name} from place ${valueText("position", before.position)} to ${valueText("position", after.position)}`;
  }
  const changes = changesText(entry.before, entry.after, kind === "review" ? ["product"] : []);
  const done =
    verb === "updated" || verb === "changed" ? "changed" : verb === "renamed" ? "renamed" : entry.action;
  return changes ? `${done} ${name}: ${changes}` : `${done} ${name}`;
}

/** One entry as a sentence, its actor first. */
export function sentenceOf(entry: LoggedChange): string {
  const name = entry.subjectName || nameFromSubject(entry.subject);
  return `${actorText(entry.who)} ${predicate(entry, name)}.`;
}
