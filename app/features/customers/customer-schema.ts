import { z } from "~/utils/zod";

/**
 * What the customer pages take: /admin/customers?q=ada&page=2 and
 * /admin/customers/<account id>. An account's id, never its email, names
 * a customer in a path: addresses end up in logs and browser histories.
 */
export const customerListSchema = z.object({
  q: z.preprocess(
    (value) => (typeof value === "string" ? value.trim() || undefined : value),
    z.string().max(200, "q is at most 200 characters.").optional(),
  ),
  page: z.coerce
    .number("page is a whole number from 1.")
    .int("page is a whole number from 1.")
    .min(1, "page is a whole number from 1.")
    .max(100_000, "page is a whole number from 1.")
    .default(1),
});

export type CustomerListQuery = z.infer<typeof customerListSchema>;

export const customerParamsSchema = z.object({ customerId: z.string().min(1).max(100) });

export const customerOrdersQuerySchema = customerListSchema.pick({ page: true });
