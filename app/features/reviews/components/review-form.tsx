import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { FormMessage } from "~/components/forms/field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { buttonClasses } from "~/components/ui/button";
import { StarIcon } from "~/components/ui/icons";
import type { OwnReview } from "../review-listing.server";
import { REVIEW_BODY_MAX, REVIEW_TITLE_MAX, type ReviewFormFields, reviewFormSchema } from "../review-schema";

/** Each of five stars, by its place: a fixed row, never reordered. */
const STAR_KEYS = ["one", "two", "three", "four", "five"] as const;

const INPUT =
  "block w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm outline-none focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30";

/**
 * Writing or changing the shopper's review: the stars as a real radio group
 * (a fieldset and its legend; arrow keys move between the stars, and each
 * says "4 stars"), an optional title and text with their limits said and
 * counted, checked by the server's own schema; every message beside its
 * field, the focus on the first, with or without JavaScript. Their own
 * review can be deleted from here.
 */
export function ReviewForm({ own, answer }: { own: OwnReview | null; answer: SubmissionResult | undefined }) {
  const [form, fields] = useForm<ReviewFormFields>({
    id: "review",
    lastResult: answer,
    defaultValue: {
      intent: "save",
      rating: own ? String(own.rating) : undefined,
      title: own?.title ?? "",
      body: own?.body ?? "",
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: reviewFormSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const formRef = useFailedSubmission(answer);
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  const [bodyLength, setBodyLength] = useState((own?.body ?? "").length);
  const ratingError = fields.rating.errors?.[0];
  const titleError = fields.title.errors?.[0];
  const bodyError = fields.body.errors?.[0];
  const firstInvalid = ratingError ? "rating" : titleError ? "title" : bodyError ? "body" : null;
  return (
    <div className="space-y-4">
      <Form ref={formRef} method="post" {...getFormProps(form)} className="space-y-5">
        <input type="hidden" name="intent" value="save" />
        {own ? <input type="hidden" name="editing" value="1" /> : null}
        <FormMessage id={form.errorId} errors={form.errors} autoFocus={firstInvalid === null} />
        <fieldset aria-describedby={ratingError ? fields.rating.errorId : undefined}>
          <legend className="text-sm font-semibold text-slate-800">Your rating</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {[1, 2, 3, 4, 5].map((stars) => {
              const id = `${fields.rating.id}-${stars}`;
              return (
                <label
                  key={stars}
                  htmlFor={id}
                  className="flex cursor-pointer items-center gap-1.5 rounded-lg border border-slate-500 px-3 py-2 has-[:checked]:border-indigo-600 has-[:checked]:bg-indigo-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-600"
                >
                  <input
                    id={id}
                    type="radio"
                    name={fields.rating.name}
                    value={stars}
                    defaultChecked={fields.rating.initialValue === String(stars)}
                    aria-invalid={ratingError ? true : undefined}
                    // biome-ignore lint/a11y/noAutofocus: the field the server refused, focused without JavaScript too
                    autoFocus={firstInvalid === "rating" && stars === 1}
                    className="size-4 shrink-0 accent-indigo-600"
                  />
                  <span aria-hidden="true" className="flex text-amber-500">
                    {STAR_KEYS.slice(0, stars).map((key) => (
                      <StarIcon key={key} className="size-4" />
                    ))}
                  </span>
                  <span className="text-sm font-medium text-slate-900">{`${stars} ${stars === 1 ? "star" : "stars"}`}</span>
                </label>
              );
            })}
          </div>
          {ratingError ? (
            <p id={fields.rating.errorId} className="mt-1.5 text-sm font-medium text-red-700">
              {ratingError}
            </p>
          ) : null}
        </fieldset>
        <div>
          <label htmlFor={fields.title.id} className="block text-sm font-semibold text-slate-800">
            Title (optional, up to {REVIEW_TITLE_MAX} characters)
          </label>
          <input
            {...getInputProps(fields.title, { type: "text" })}
            key={fields.title.key}
            maxLength={REVIEW_TITLE_MAX}
            // biome-ignore lint/a11y/noAutofocus: the field the server refused, focused without JavaScript too
            autoFocus={firstInvalid === "title"}
            className={`${INPUT} mt-1.5 h-11 ${titleError ? "border-red-600" : "border-slate-500"}`}
          />
          {titleError ? (
            <p id={fields.title.errorId} className="mt-1.5 text-sm font-medium text-red-700">
              {titleError}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={fields.body.id} className="block text-sm font-semibold text-slate-800">
            Your review (optional)
          </label>
          <textarea
            {...getTextareaProps(fields.body, { ariaDescribedBy: `${fields.body.id}-count` })}
            key={fields.body.key}
            rows={5}
            maxLength={REVIEW_BODY_MAX}
            onChange={(event) => setBodyLength(event.currentTarget.value.length)}
            // biome-ignore lint/a11y/noAutofocus: the field the server refused, focused without JavaScript too
            autoFocus={firstInvalid === "body"}
            className={`${INPUT} mt-1.5 py-2 ${bodyError ? "border-red-600" : "border-slate-500"}`}
          />
          <p id={`${fields.body.id}-count`} className="mt-1.5 text-sm text-slate-700">
            {`${bodyLength.toLocaleString("en-US")} of ${REVIEW_BODY_MAX.toLocaleString("en-US")} characters. Shown as plain text; links are not clickable.`}
          </p>
          {bodyError ? (
            <p id={fields.body.errorId} className="mt-1.5 text-sm font-medium text-red-700">
              {bodyError}
            </p>
          ) : null}
        </div>
        <button type="submit" aria-disabled={saving || undefined} className={buttonClasses("primary")}>
          {saving ? "Saving…" : own ? "Save changes" : "Post review"}
        </button>
      </Form>
      {own ? (
        <Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <button type="submit" className={buttonClasses("secondary")}>
            Delete my review
          </button>
        </Form>
      ) : null}
    </div>
  );
}
