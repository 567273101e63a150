import { z } from "~/utils/zod";

/**
 * What the reviews take, shared by the product page's forms and the server
 * (docs/decisions/0033): a review (1 to 5 stars, an optional title of up to
 * 120 characters and text of up to 5,000), deleting one's own, marking
 * another's helpful; and the product page's reviews parameters.
 */

export const REVIEW_TITLE_MAX = 120;
export const REVIEW_BODY_MAX = 5_000;

/** Text as typed, trimmed; an empty field is no text at all. */
const optionalText = (label: string, max: number, { lines }: { lines: boolean }) =>
  z.preprocess(
    (value) => {
      if (typeof value !== "string") return value;
      // A title is one line; the text keeps its paragraphs, in the shopper's line breaks.
      const text = lines ? value.replace(/\r\n?/g, "\n") : value.replace(/\s+/g, " ");
      return text.trim() || undefined;
    },
    z
      // Control characters (other than line breaks and tabs in the text) are no one's writing.
      .string({ error: `${label} must be text.`, label, multiline: lines })
      .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters.`)
      .optional(),
  );

const STARS = "Choose from 1 to 5 stars.";

export const reviewFormSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("save"),
      /** "1" when the form showed the shopper's own review to change; a new review otherwise. */
      editing: z.literal("1", "editing is 1 or absent.").optional(),
      rating: z.coerce.number(STARS).int(STARS).min(1, STARS).max(5, STARS),
      title: optionalText("The title", REVIEW_TITLE_MAX, { lines: false }),
      body: optionalText("Your review", REVIEW_BODY_MAX, { lines: true }),
    }),
    z.object({ intent: z.literal("delete") }),
    z.object({
      intent: z.literal("helpful"),
      reviewId: z.coerce
        .number("The form does not say which review.")
        .int("The form does not say which review.")
        .min(1, "The form does not say which review.")
        .max(Number.MAX_SAFE_INTEGER, "The form does not say which review."),
    }),
  ],
  { error: "intent is one of save, delete, helpful." },
);

export type ReviewFormFields = z.input<typeof reviewFormSchema>;

const REVIEW_ORDERS = ["newest", "helpful"] as const;
export type ReviewOrder = (typeof REVIEW_ORDERS)[number];

/** The product page's `?reviews=helpful&reviewsPage=2`: anything else there is a 400 naming the parameter. */
export const reviewListQuerySchema = z.object({
  reviews: z.enum(REVIEW_ORDERS, "reviews is newest or helpful.").default("newest"),
  reviewsPage: z.coerce
    .number("reviewsPage is a whole number from 1.")
    .int("reviewsPage is a whole number from 1.")
    .min(1, "reviewsPage is a whole number from 1.")
    .max(100_000, "reviewsPage is a whole number from 1 to 100000.")
    .default(1),
});
