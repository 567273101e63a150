import { z } from "~/utils/zod";

/** The activity page's query: the page (by cursor) and the search (its form and its loader). */
export const ACTIVITY_SEARCH_MAX_LENGTH = 100;

export const activityQuerySchema = z.object({
  /** Entries older than this id. */
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  /** Words every entry shown names: a product's name or SKU, an order's number, an email. */
  search: z
    .string()
    .trim()
    .max(ACTIVITY_SEARCH_MAX_LENGTH, `search must be at most ${ACTIVITY_SEARCH_MAX_LENGTH} characters.`)
    .optional(),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;
