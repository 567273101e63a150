import { data, Link, redirect } from "react-router";
import { shopMoney } from "~/commerce/shop-money.server";
import { taxClassesOf } from "~/commerce/tax-shipping-setup";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { useFlashToast } from "~/components/back-office/use-flash-toast";
import { accountsFor, backOfficeVisitorOf, servicesContext } from "~/context.server";
import { identityRefusals } from "~/features/auth/account-form.server";
import { refusedSubmission } from "~/features/auth/route-helpers.server";
import { productHref } from "~/features/catalog/browsing/catalog-url";
import {
  productDeleteSchema,
  productFormSchema,
  productIntentSchema,
} from "~/features/catalog/core/product-form-schema";
import { ProductAdminActions } from "~/features/catalog/management/components/product-admin-actions";
import { ProductForm } from "~/features/catalog/management/components/product-form";
import {
  deleteProduct,
  type ProductFlashCode,
  productFlash,
  productForEditing,
  productIdOf,
  saveProduct,
  setProductArchived,
  uploadedPicture,
} from "~/features/catalog/management/index.server";
import { checkedSubmission, failedSubmission, readForm } from "~/utils/form-submission.server";
import type { Route } from "./+types/admin.product";

/** `/admin/products/<id>`: the product's form, archive or restore, delete. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const id = productIdOf(params);
  const { database, catalog, taxShipping } = context.get(servicesContext);
  const [product, values, overview, flash, setup] = await Promise.all([
    productForEditing(database.db, id),
    catalog.facetValues(),
    accountsFor(request, context).account.overview(),
    productFlash.take(request),
    taxShipping.current(),
  ]);
  if (!product) throw data(null, { status: 404 });
  return data(
    {
      product,
      ...values.value,
      taxClasses: taxClassesOf(setup),
      hasPassword: overview?.hasPassword ?? true,
      toast: flash?.toast ?? null,
    },
    { headers: { "Cache-Control": "no-store", ...(flash ? { "Set-Cookie": flash.clear } : {}) } },
  );
}

/**
 * POST /admin/products/<id>: `intent` says which form was sent — save
 * (multipart, with the picture), archive, restore or delete (the password
 * again). Each is one transaction with its audit entry, then a redirect
 * with a toast; a refusal comes back to its form, naming the field.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const visitor = await backOfficeVisitorOf(request, context);
  const id = productIdOf(params);
  const { database, baseUrl } = context.get(servicesContext);
  const form = await readForm(request);
  const intent = productIntentSchema.safeParse({ intent: form.get("intent") ?? undefined });
  if (!intent.success) throw data(intent.error.issues[0]?.message ?? "intent is not valid.", { status: 400 });
  const done = async (code: ProductFlashCode, to = `/admin/products/${id}`) =>
    redirect(to, { headers: { "Set-Cookie": await productFlash.set(code, baseUrl.startsWith("https:")) } });

  switch (intent.data.intent) {
    case "archive":
    case "restore": {
      const archived = intent.data.intent === "archive";
      const result = await setProductArchived(database.db, visitor.actor, id, archived);
      if (!result) throw data(null, { status: 404 });
      throw await done(archived ? "product-archived" : "product-restored");
    }
    case "delete": {
      const { submission, refused } = checkedSubmission(form, productDeleteSchema);
      if (refused) return data({ intent: "delete" as const, ...refused.data }, refused.init ?? undefined);
      const identity = await accountsFor(request, context).backOffice.confirm(submission.value.password);
      if (identity) {
        const answer = refusedSubmission(submission, identity, identityRefusals("password"));
        return data({ intent: "delete" as const, ...answer.data }, answer.init ?? undefined);
      }
      const result = await deleteProduct(database.db, visitor.actor, id);
      if (!result) throw data(null, { status: 404 });
      if ("refused" in result) {
        const answer = failedSubmission(submission, 409, { formErrors: [result.refused.message] });
        return data({ intent: "delete" as const, ...answer.data }, answer.init ?? undefined);
      }
      throw await done("product-deleted", "/admin/products");
    }
    case "save": {
      const { submission, refused } = checkedSubmission(form, productFormSchema(shopMoney().currency));
      if (refused) return data({ intent: "save" as const, ...refused.data }, refused.init ?? undefined);
      const answer = (status: number, field: string, message: string) => {
        const failed = failedSubmission(submission, status, { fieldErrors: { [field]: [message] } });
        return data({ intent: "save" as const, ...failed.data }, failed.init ?? undefined);
      };
      const file = submission.value.picture;
      const picture = file ? await uploadedPicture(database.db, file) : { image: undefined };
      if ("refused" in picture) return answer(422, "picture", picture.refused.message);
      const saved = await saveProduct(database.db, visitor.actor, id, submission.value, picture.image);
      if (!saved) throw data(null, { status: 404 });
      if ("refused" in saved) {
        const refusal = answer(409, saved.refused.field, saved.refused.message);
        // The form counts from what is on hand now: sent again, it sets the stock the owner typed.
        return data({ ...refusal.data, stockNow: saved.refused.stockNow }, refusal.init ?? undefined);
      }
      throw await done("product-saved");
    }
  }
}

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product } = loaderData;
  useFlashToast(loaderData.toast);
  return (
    <BackOfficePage
      title={product.name}
      intro={
        <>
          SKU {product.sku} · {product.archived ? "Archived: not in the shop" : "On sale"}
          {" · "}
          <Link
            to={`/admin/products/${product.id}/variants`}
            className="font-semibold text-indigo-700 underline underline-offset-4"
          >
            Options and variants
          </Link>
          {product.archived ? null : (
            <>
              {" · "}
              <Link
                to={productHref({ id: product.id, name: product.name })}
                className="font-semibold text-indigo-700 underline underline-offset-4"
              >
                See it in the shop
              </Link>
            </>
          )}
        </>
      }
    >
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <ProductForm
          // A new form after a save: the stock shown is the one read again.
          key={`${product.stock}:${product.priceCents}:${product.image}`}
          product={product}
          brands={loaderData.brands}
          categories={loaderData.categories}
          taxClasses={loaderData.taxClasses}
          result={actionData?.intent === "save" ? actionData.result : undefined}
          stockShown={
            actionData && "stockNow" in actionData && typeof actionData.stockNow === "number"
              ? actionData.stockNow
              : undefined
          }
        />
        <ProductAdminActions
          archived={product.archived}
          hasPassword={loaderData.hasPassword}
          deleteResult={actionData?.intent === "delete" ? actionData.result : undefined}
        />
      </div>
    </BackOfficePage>
  );
}
