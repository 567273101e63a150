import { listPageField, listSearchField } from "~/utils/list-query-fields";
import { z } from "~/utils/zod";

/**
 * What the customer pages take: /admin/customers?q=ada&page=2 and
 * /admin/customers/<account id>. An account's id, never its email, names
 * a customer in a path: addresses end up in logs and browser histories.
 */
export const customerListSchema = z.object({
  q: listSearchField(),
  page: listPageField(),
});

export type CustomerListQuery = z.infer<typeof customerListSchema>;

export const customerParamsSchema = z.object({ customerId: z.string().min(1).max(100) });

export const customerOrdersQuerySchema = customerListSchema.pick({ page: true });
