import { z } from "./zod";

/**
 * The fields every back-office list's address shares (the orders, the
 * customers): what was typed in its search box, and the page. One schema for
 * each, so both lists refuse the same things with the same words.
 */

/** `q`: the search, trimmed; blank is no search. */
export const listSearchField = () =>
  z.preprocess(
    (value) => (typeof value === "string" ? value.trim() || undefined : value),
    z.string().max(200, "q is at most 200 characters.").optional(),
  );

/** `page`: from 1, 1 when absent. */
export const listPageField = () =>
  z.coerce
    .number("page is a whole number from 1.")
    .int("page is a whole number from 1.")
    .min(1, "page is a whole number from 1.")
    .max(100_000, "page is a whole number from 1.")
    .default(1);
