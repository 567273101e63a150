import { BackOfficePage } from "~/components/back-office/back-office-page";
import { backOfficeVisitorOf } from "~/context.server";
import type { Route } from "./+types/admin.catalog-import";

// PLACEHOLDER: being built (issue 24).
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  return null;
}

export default function Page() {
  return <BackOfficePage title="Import products">{null}</BackOfficePage>;
}
