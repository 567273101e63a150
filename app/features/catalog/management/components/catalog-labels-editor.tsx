import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import {
  BackOfficeTable,
  tableCellClasses,
  tableHeadClasses,
} from "~/components/back-office/back-office-page";
import { Field, FormMessage } from "~/components/forms/field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { useFocusWhenShown } from "~/components/forms/use-focus-when-shown";
import { buttonClasses } from "~/components/ui/button";
import { catalogLabelFormSchema, type LabelKind } from "../../core/product-form-schema";

interface LabelRow {
  value: string;
  label: string;
}

/** What the page's action answered: which form, its result, or what it did. */
export interface LabelAnswer {
  form: string;
  result?: SubmissionResult<string[]>;
  done?: string;
}

const TITLES: Record<LabelKind, { plural: string; one: string }> = {
  brand: { plural: "Brands", one: "brand" },
  category: { plural: "Categories", one: "category" },
};

function AddLabelForm({ kind, answer }: { kind: LabelKind; answer: LabelAnswer | undefined }) {
  const id = `add-${kind}`;
  const result = answer?.form === id ? answer.result : undefined;
  const [form, fields] = useForm({
    id,
    lastResult: result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: catalogLabelFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const formRef = useFailedSubmission(result);
  return (
    <Form
      ref={formRef}
      method="post"
      {...getFormProps(form)}
      className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
    >
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="form" value={id} />
      <FormMessage id={form.errorId} errors={form.errors} />
      <Field
        meta={fields.value}
        label="Value"
        autoComplete="off"
        hint="As addresses carry it, such as campSafe."
      />
      <Field meta={fields.label} label="Label" autoComplete="off" hint="As shoppers read it." />
      <button type="submit" className={`${buttonClasses("primary", "sm")} sm:mt-7`}>
        Add {TITLES[kind].one}
      </button>
    </Form>
  );
}

function LabelRows({ kind, rows }: { kind: LabelKind; rows: LabelRow[] }) {
  return (
    <BackOfficeTable caption={`${TITLES[kind].plural}, in the order the shop lists them`}>
      <thead className={tableHeadClasses}>
        <tr>
          <th scope="col" className="px-3 py-2">
            Value
          </th>
          <th scope="col" className="px-3 py-2">
            Label
          </th>
          <th scope="col" className="px-3 py-2">
            Order
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, at) => (
          <tr key={row.value}>
            <td className={`${tableCellClasses} break-all`}>{row.value}</td>
            <td className={tableCellClasses}>
              <Form method="post" className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="intent" value="rename" />
                <input type="hidden" name="kind" value={kind} />
                <input type="hidden" name="value" value={row.value} />
                <input type="hidden" name="form" value={`${kind}:${row.value}`} />
                <input
                  id={`label-${kind}-${row.value}`}
                  // Named by aria-label: an sr-only label, positioned absolutely, would widen the page from inside the scrolling table.
                  aria-label={`Label of ${row.value}`}
                  name="label"
                  defaultValue={row.label}
                  required
                  maxLength={100}
                  className="h-9 min-w-0 flex-1 rounded-lg border border-slate-500 bg-white px-2 text-base text-slate-900"
                />
                <button
                  type="submit"
                  aria-label={`Rename ${row.value}`}
                  className={buttonClasses("secondary", "sm")}
                >
                  Rename
                </button>
              </Form>
            </td>
            <td className={tableCellClasses}>
              <Form method="post" className="flex gap-2">
                <input type="hidden" name="kind" value={kind} />
                <input type="hidden" name="value" value={row.value} />
                <input type="hidden" name="form" value={`${kind}:${row.value}`} />
                <button
                  type="submit"
                  name="intent"
                  value="move-up"
                  aria-label={`Move ${row.label} up`}
                  aria-disabled={at === 0 ? true : undefined}
                  className={buttonClasses("ghost", "sm", "border border-slate-400")}
                >
                  Up
                </button>
                <button
                  type="submit"
                  name="intent"
                  value="move-down"
                  aria-label={`Move ${row.label} down`}
                  aria-disabled={at === rows.length - 1 ? true : undefined}
                  className={buttonClasses("ghost", "sm", "border border-slate-400")}
                >
                  Down
                </button>
              </Form>
            </td>
          </tr>
        ))}
      </tbody>
    </BackOfficeTable>
  );
}

/**
 * `/admin/products/brands-and-categories`: each kind's rows in the shop's
 * order, each label renamed in place and moved up or down with buttons (no
 * dragging: a keyboard and a screen reader do it the same way), and a form
 * to add one.
 */
export function CatalogLabelsEditor({
  labels,
  answer,
}: {
  labels: Record<LabelKind, LabelRow[]>;
  answer: LabelAnswer | undefined;
}) {
  const rowRefusal =
    answer && !answer.form.startsWith("add-")
      ? (answer.result?.error?.[""]?.[0] ?? Object.values(answer.result?.error ?? {})[0]?.[0])
      : undefined;
  const message = answer?.done ?? rowRefusal;
  const messageRef = useFocusWhenShown<HTMLParagraphElement>(rowRefusal ?? null);
  return (
    <div className="space-y-10">
      {message ? (
        <p
          ref={messageRef}
          tabIndex={-1}
          role="status"
          className={`rounded-lg border px-3 py-2 text-sm font-medium ${
            rowRefusal
              ? "border-red-200 bg-red-50 text-red-800"
              : "border-emerald-300 bg-emerald-50 text-emerald-900"
          }`}
        >
          {message}
        </p>
      ) : null}
      {(["brand", "category"] as const).map((kind) => (
        <section key={kind} aria-labelledby={`${kind}-title`} className="space-y-4">
          <h2 id={`${kind}-title`} className="text-xl font-bold text-slate-900">
            {TITLES[kind].plural}
          </h2>
          <LabelRows kind={kind} rows={labels[kind]} />
          <h3 className="text-base font-bold text-slate-900">Add a {TITLES[kind].one}</h3>
          <AddLabelForm kind={kind} answer={answer} />
        </section>
      ))}
    </div>
  );
}
