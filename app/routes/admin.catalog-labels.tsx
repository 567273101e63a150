import { data } from "react-router";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { catalogLabelFormSchema } from "~/features/catalog/core/product-form-schema";
import { CatalogLabelsEditor } from "~/features/catalog/management/components/catalog-labels-editor";
import { catalogLabels, changeCatalogLabel } from "~/features/catalog/management/index.server";
import { checkedSubmission, failedSubmission, readForm } from "~/utils/form-submission.server";
import { z } from "~/utils/zod";
import type { Route } from "./+types/admin.catalog-labels";

/** `/admin/products/brands-and-categories`: the catalogue's brands and categories, in the shop's order. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  return catalogLabels(context.get(servicesContext).database.db);
}

const sentBySchema = z.string().min(1).max(220);

const DONE = {
  add: "Added.",
  rename: "Label saved.",
  "move-up": "Moved up.",
  "move-down": "Moved down.",
} as const;

/**
 * POST: add a brand or category, rename a label, move one up or down; each
 * with its audit entry. The page comes back with what was done, or with the
 * refusal beside its form (`form` names which of the page's forms sent it).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const visitor = await backOfficeVisitorOf(request, context);
  const form = await readForm(request);
  // Which of the page's forms sent it, echoed back to put the answer beside it: a form's own id, or none.
  const sentBy = sentBySchema.safeParse(form.get("form")).data ?? "";
  const { submission, refused } = checkedSubmission(form, catalogLabelFormSchema);
  if (refused) return data({ form: sentBy, ...refused.data }, refused.init ?? undefined);
  const { database } = context.get(servicesContext);
  const change = await changeCatalogLabel(database.db, visitor.actor, submission.value);
  if ("refused" in change) {
    const { field, message } = change.refused;
    const failed = failedSubmission(submission, 409, { fieldErrors: { [field]: [message] } });
    return data({ form: sentBy, ...failed.data }, failed.init ?? undefined);
  }
  const reset = submission.value.intent === "add" ? submission.reply({ resetForm: true }) : undefined;
  return { form: sentBy, result: reset, done: DONE[submission.value.intent] };
}

export default function CatalogLabels({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <BackOfficePage
      title="Brands and categories"
      intro="The shop's filters list them in this order, by these labels."
    >
      <CatalogLabelsEditor labels={loaderData} answer={actionData} />
    </BackOfficePage>
  );
}
