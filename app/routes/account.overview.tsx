import { AccountForms } from "~/features/auth/components/account-forms";
import type { Route } from "./+types/account.overview";

/** `/account` itself: every form, none answered yet. */
export default function AccountOverview({ matches }: Route.ComponentProps) {
  return <AccountForms account={matches[1].loaderData} />;
}
