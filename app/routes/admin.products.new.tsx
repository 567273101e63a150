import { redirect } from "react-router";
import { shopMoney } from "~/commerce/shop-money.server";
import { taxClassesOf } from "~/commerce/tax-shipping-setup";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { newProductFormSchema } from "~/features/catalog/core/product-form-schema";
import { ProductForm } from "~/features/catalog/management/components/product-form";
import { createProduct, productFlash, uploadedPicture } from "~/features/catalog/management/index.server";
import { failedSubmission, readSubmission } from "~/utils/form-submission.server";
import type { Route } from "./+types/admin.products.new";

/** `/admin/products/new`: the product form, empty. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const { catalog, taxShipping } = context.get(servicesContext);
  const [{ value }, setup] = await Promise.all([catalog.facetValues(), taxShipping.current()]);
  return { ...value, taxClasses: taxClassesOf(setup) };
}

/**
 * POST /admin/products/new (multipart: the picture goes with it): the
 * picture made into the shop's sizes, then the product, its stock and its
 * audit entry in one transaction; then its page, with a toast.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const visitor = await backOfficeVisitorOf(request, context);
  const { submission, refused } = await readSubmission(request, newProductFormSchema(shopMoney().currency));
  if (refused) return refused;
  const { database, baseUrl } = context.get(servicesContext);
  const picture = await uploadedPicture(database.db, submission.value.picture);
  if ("refused" in picture) {
    return failedSubmission(submission, 422, { fieldErrors: { picture: [picture.refused.message] } });
  }
  const created = await createProduct(database.db, visitor.actor, submission.value, picture.image);
  if ("refused" in created) {
    const { field, message } = created.refused;
    // A SKU another product has is a conflict; a brand or category not in the list, a bad choice.
    return failedSubmission(submission, field === "sku" ? 409 : 422, { fieldErrors: { [field]: [message] } });
  }
  throw redirect(`/admin/products/${created.id}`, {
    headers: { "Set-Cookie": await productFlash.set("product-created", baseUrl.startsWith("https:")) },
  });
}

export default function NewProduct({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <BackOfficePage title="New product" intro="It is on sale in the shop once saved.">
      <ProductForm
        product={{
          name: "",
          sku: "",
          brand: "",
          category: "",
          priceCents: null,
          stock: 0,
          description: "",
          taxClass: null,
          image: null,
        }}
        brands={loaderData.brands}
        categories={loaderData.categories}
        taxClasses={loaderData.taxClasses}
        result={actionData?.result}
      />
    </BackOfficePage>
  );
}
