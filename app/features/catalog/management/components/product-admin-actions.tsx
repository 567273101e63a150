import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormMessage } from "~/components/forms/field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { buttonClasses } from "~/components/ui/button";
import { productDeleteSchema } from "../../core/product-form-schema";

const SECTION = "rounded-2xl border border-slate-200 bg-white p-5 shadow-sm";

/**
 * Archive or restore (one button: the shop hides an archived product and
 * keeps it for past orders), and delete, which asks for the password again
 * and is refused when an order names the product.
 */
export function ProductAdminActions({
  archived,
  hasPassword,
  deleteResult,
}: {
  archived: boolean;
  hasPassword: boolean;
  deleteResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: "delete-product",
    lastResult: deleteResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: productDeleteSchema }),
    shouldValidate: "onSubmit",
  });
  const formRef = useFailedSubmission(deleteResult);
  const passwordError = fields.password.errors?.[0];
  return (
    <div className="space-y-6">
      <section aria-labelledby="archive-title" className={SECTION}>
        <h2 id="archive-title" className="text-lg font-bold text-slate-900">
          {archived ? "Archived" : "On sale"}
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          {archived
            ? "The shop does not show it; past orders still name it."
            : "Archiving hides it from the shop and keeps it for past orders."}
        </p>
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value={archived ? "restore" : "archive"} />
          <button type="submit" className={buttonClasses("secondary", "sm")}>
            {archived ? "Restore" : "Archive"}
          </button>
        </Form>
      </section>
      <section aria-labelledby="delete-title" className={SECTION}>
        <h2 id="delete-title" className="text-lg font-bold text-slate-900">
          Delete
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          For a product no order names: it goes for good. One an order names can only be archived.
        </p>
        <Form ref={formRef} method="post" {...getFormProps(form)} className="mt-3 space-y-3">
          <FormMessage id={form.errorId} errors={form.errors} autoFocus />
          <input type="hidden" name="intent" value="delete" />
          {hasPassword ? (
            <div>
              <label htmlFor={fields.password.id} className="block text-sm font-semibold text-slate-800">
                Your password
              </label>
              <input
                id={fields.password.id}
                name={fields.password.name}
                type="password"
                data-password=""
                autoComplete="current-password"
                aria-invalid={passwordError ? true : undefined}
                aria-describedby={passwordError ? fields.password.errorId : undefined}
                className={`mt-1.5 block h-11 w-full max-w-xs rounded-lg border bg-white px-3 text-base text-slate-900 ${
                  passwordError ? "border-red-600" : "border-slate-500"
                }`}
              />
              {passwordError ? (
                <p id={fields.password.errorId} className="mt-1.5 text-sm font-medium text-red-700">
                  {passwordError}
                </p>
              ) : null}
            </div>
          ) : (
            <p className="text-sm text-slate-700">
              Your account has no password: a sign-in of the last ten minutes confirms it is you.
            </p>
          )}
          <button type="submit" className={buttonClasses("danger", "sm")}>
            Delete product
          </button>
        </Form>
      </section>
    </div>
  );
}
