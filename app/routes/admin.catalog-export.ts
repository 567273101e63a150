import { backOfficeVisitorOf } from "~/context.server";
import type { Route } from "./+types/admin.catalog-export";

// PLACEHOLDER: being built (issue 24).
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  return new Response("", { status: 501 });
}
