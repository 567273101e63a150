import { z } from "~/utils/zod";

/**
 * Money in the JSON API's answers: a decimal of the answer's `currency`
 * (12.5 is 12.50 USD; JPY has none), made from whole minor units.
 */
export const amountSchema = () =>
  z
    .number()
    .min(0)
    .describe("In the answer's `currency`, with at most its minor unit's decimals (2 for USD).");

/** The currency beside every money answer. */
export const currencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .describe("The ISO 4217 code of every amount in this answer: USD, EUR, JPY…");
