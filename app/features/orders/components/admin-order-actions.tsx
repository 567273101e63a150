import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { buttonClasses } from "~/components/ui/button";
import { orderActionSchema } from "../order-admin-schema";
import type { AdminOrderPageData } from "../order-admin-view.server";
import { FILTER_INPUT } from "./admin-order-list";

/** What the order page's action answered: the form it was (`intent`) and Conform's result. */
export interface OrderActionAnswer {
  intent: unknown;
  result: SubmissionResult;
}

/** The answer's one message for the whole page: a refusal, or a form that could not be read. */
export function answerMessage(answer: OrderActionAnswer | undefined): string | null {
  const error = answer?.result.error;
  if (!error) return null;
  return error[""]?.[0] ?? error.intent?.[0] ?? error.shownStatus?.[0] ?? null;
}

/**
 * The actions that fit the order now, each its own form (a plain POST that
 * works without JavaScript), each carrying the status the page shows, so a
 * page out of date is refused rather than acting on an order it no longer
 * describes.
 */
export function AdminOrderActions({
  order,
  answer,
}: {
  order: AdminOrderPageData;
  answer: OrderActionAnswer | undefined;
}) {
  if (order.actions.length === 0) {
    return (
      <p className="text-slate-700">Nothing more to do: this order is {order.statusLabel.toLowerCase()}.</p>
    );
  }
  const units = order.lines.reduce((sum, line) => sum + line.quantity, 0);
  return (
    <div className="grid gap-4 md:grid-cols-3">
      {order.actions.includes("mark-paid") ? (
        <ActionForm
          order={order}
          intent="mark-paid"
          label="Mark paid"
          variant="primary"
          hint="The payment has arrived. The customer is emailed."
        />
      ) : null}
      {order.actions.includes("mark-shipped") ? (
        <ShipForm order={order} answer={answer?.intent === "mark-shipped" ? answer : undefined} />
      ) : null}
      {order.actions.includes("cancel") ? (
        <ActionForm
          order={order}
          intent="cancel"
          label="Cancel order"
          variant="danger"
          hint={`Puts ${units === 1 ? "1 unit" : `${units} units`} back in stock. The customer is emailed.${order.status === "paid" && order.cardPayments ? " Refund the card payment below." : ""}`}
        />
      ) : null}
    </div>
  );
}

function ActionForm({
  order,
  intent,
  label,
  variant,
  hint,
}: {
  order: AdminOrderPageData;
  intent: string;
  label: string;
  variant: "primary" | "danger";
  hint: string;
}) {
  const hintId = `${intent}-hint`;
  return (
    <Form method="post" className="flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-4">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="shownStatus" value={order.status} />
      <p id={hintId} className="text-sm text-slate-700">
        {hint}
      </p>
      <button
        type="submit"
        aria-describedby={hintId}
        className={buttonClasses(variant, "md", "mt-auto w-full")}
      >
        {label}
      </button>
    </Form>
  );
}

/** Mark shipped, with the carrier's tracking number if there is one (checked by the server's own schema). */
function ShipForm({ order, answer }: { order: AdminOrderPageData; answer: OrderActionAnswer | undefined }) {
  const [form, fields] = useForm({
    id: "mark-shipped",
    lastResult: answer?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: orderActionSchema }),
    shouldValidate: "onSubmit",
  });
  const formRef = useFailedSubmission(answer?.result);
  const tracking = fields.trackingNumber;
  const error = tracking.errors?.[0];
  const { key, ...input } = getInputProps(tracking, { type: "text", ariaDescribedBy: "mark-shipped-hint" });
  return (
    <Form
      ref={formRef}
      method="post"
      {...getFormProps(form)}
      className="flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-4"
    >
      <input type="hidden" name="intent" value="mark-shipped" />
      <input type="hidden" name="shownStatus" value={order.status} />
      <label htmlFor={tracking.id} className="block text-sm font-semibold text-slate-800">
        Tracking number (optional)
      </label>
      <input
        key={key}
        {...input}
        // biome-ignore lint/a11y/noAutofocus: the field the server refused, focused without JavaScript too
        autoFocus={Boolean(error)}
        autoComplete="off"
        className={`${FILTER_INPUT} ${error ? "border-red-600" : "border-slate-500"}`}
      />
      {error ? (
        <p id={tracking.errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <p id="mark-shipped-hint" className="text-sm text-slate-700">
        The parcel has left. The customer is emailed, with the tracking number.
      </p>
      <button type="submit" className={buttonClasses("primary", "md", "mt-auto w-full")}>
        Mark shipped
      </button>
    </Form>
  );
}
