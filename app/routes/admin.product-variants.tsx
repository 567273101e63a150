import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, redirect } from "react-router";
import { shopMoney } from "~/commerce/shop-money.server";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { useFlashToast } from "~/components/back-office/use-flash-toast";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { variantsFormSchema } from "~/features/catalog/core/variants-form-schema";
import { VariantsEditor } from "~/features/catalog/management/components/variants-editor";
import {
  applyVariantsForm,
  productFlash,
  productIdOf,
  variantsForEditing,
} from "~/features/catalog/management/index.server";
import { readForm } from "~/utils/form-submission.server";
import type { Route } from "./+types/admin.product-variants";

/** `/admin/products/<id>/variants`: the product's options and its table of variants. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const id = productIdOf(params);
  const { database } = context.get(servicesContext);
  const [editing, flash] = await Promise.all([
    variantsForEditing(database.db, id),
    productFlash.take(request),
  ]);
  if (!editing) throw data(null, { status: 404 });
  return data(
    { ...editing, toast: flash?.toast ?? null },
    { headers: { "Cache-Control": "no-store", ...(flash ? { "Set-Cookie": flash.clear } : {}) } },
  );
}

/** POST: Save, Make every combination, or a bulk action; one transaction with its audit entry each. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const visitor = await backOfficeVisitorOf(request, context);
  const id = productIdOf(params);
  const { database, baseUrl } = context.get(servicesContext);
  const submission = parseWithZod(await readForm(request), {
    schema: variantsFormSchema(shopMoney().currency),
  });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const outcome = await applyVariantsForm(database.db, visitor.actor, id, submission.value);
  if (!outcome) throw data(null, { status: 404 });
  if (!outcome.ok) {
    return data(
      { result: submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] } }) },
      { status: 409 },
    );
  }
  throw redirect(`/admin/products/${id}/variants`, {
    headers: { "Set-Cookie": await productFlash.set("variants-saved", baseUrl.startsWith("https:")) },
  });
}

export default function ProductVariantsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product, options, variants } = loaderData;
  useFlashToast(loaderData.toast);
  return (
    <BackOfficePage
      title={`Options and variants: ${product.name}`}
      intro={
        <>
          SKU {product.sku} ·{" "}
          <Link
            to={`/admin/products/${product.id}`}
            className="font-semibold text-indigo-700 underline underline-offset-4"
          >
            Back to the product
          </Link>
        </>
      }
    >
      <VariantsEditor
        // A new form after a save: the rows and the stock shown are the ones read again.
        key={JSON.stringify(
          variants.map((variant) => [variant.id, variant.stock, variant.priceMinor, variant.image]),
        )}
        options={options}
        variants={variants}
        result={actionData?.result}
      />
    </BackOfficePage>
  );
}
