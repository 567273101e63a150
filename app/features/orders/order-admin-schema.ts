import { ORDER_STATUSES } from "~/commerce/order-states";
import { listPageField, listSearchField } from "~/utils/list-query-fields";
import { z } from "~/utils/zod";

/**
 * What the back office's order pages take: the list's URL parameters
 * (/admin/orders?status=paid&from=2026-03-01&q=BL-7Q4K9&page=2) and the
 * order page's action forms. Shared by the forms and the server.
 */

/** A day as an <input type="date"> sends it; the shop's days are UTC days (order-format.ts's orderDate). */
const day = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} is a date written YYYY-MM-DD.`)
    .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)), `${name} is not a date.`)
    .optional();

/** An empty field (a form sent with nothing typed) means no filter, as a missing one does. */
const blankIsMissing = (value: unknown) => (value === "" ? undefined : value);

export const adminOrderListSchema = z
  .object({
    status: z.preprocess(
      blankIsMissing,
      z.enum(ORDER_STATUSES, `status is one of ${ORDER_STATUSES.join(", ")}.`).optional(),
    ),
    from: z.preprocess(blankIsMissing, day("from")),
    to: z.preprocess(blankIsMissing, day("to")),
    q: listSearchField(),
    page: listPageField(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: "to is the same day as from or later.",
    path: ["to"],
  });

export type AdminOrderListQuery = z.infer<typeof adminOrderListSchema>;

export const ADMIN_ORDER_LIST_PARAMETERS = ["status", "from", "to", "q", "page"] as const;

/** The status the page was showing: an action sent from a page that is out of date is refused. */
const shownStatus = z.enum(ORDER_STATUSES, "The form does not say which status the order had.");

export const orderActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("mark-paid"), shownStatus }),
    z.object({
      intent: z.literal("mark-shipped"),
      shownStatus,
      trackingNumber: z.preprocess(
        (value) => (typeof value === "string" ? value.trim() || undefined : value),
        z
          .string()
          .max(100, "A tracking number is at most 100 characters.")
          .regex(/^[\p{L}\p{N} ._/-]+$/u, "A tracking number has letters, digits, spaces and . _ / - only.")
          .optional(),
      ),
    }),
    z.object({ intent: z.literal("cancel"), shownStatus }),
    // A card payment refunded through Stripe (card-payments/card-refund.server.ts): the payment is named.
    z.object({
      intent: z.literal("refund"),
      shownStatus,
      paymentId: z.coerce
        .number("The form does not say which payment to refund.")
        .int("The form does not say which payment to refund.")
        .min(1, "The form does not say which payment to refund.")
        .max(Number.MAX_SAFE_INTEGER, "The form does not say which payment to refund."),
    }),
  ],
  { error: "intent is one of mark-paid, mark-shipped, cancel, refund." },
);
