import { data } from "react-router";
import {
  BackOfficePage,
  BackOfficeTable,
  tableCellClasses,
  tableHeadClasses,
} from "~/components/back-office/back-office-page";
import { accountsFor, backOfficeVisitorOf, servicesContext } from "~/context.server";
import { identityRefusals } from "~/features/auth/account-form.server";
import { PeopleForm } from "~/features/auth/components/people-form";
import { backOfficePeople, changeRole } from "~/features/auth/people.server";
import { PEOPLE_MESSAGES, roleChangeSchema } from "~/features/auth/people-schema";
import { ROLE_LABELS } from "~/features/auth/roles";
import {
  failedSubmission,
  readSubmission,
  refusedSubmission,
  retryAfterHeaders,
} from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/admin.people";

export const headers = retryAfterHeaders;

/** `/admin/people` (owners only): who is staff or owner, and the form that changes it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context, "owner");
  const accounts = accountsFor(request, context);
  const [people, overview] = await Promise.all([
    backOfficePeople(context.get(servicesContext).database.db),
    accounts.account.overview(),
  ]);
  return { people, hasPassword: overview?.hasPassword ?? true };
}

/**
 * POST /admin/people: gives the account with this email a role. The owner's
 * password is checked (counted as a login attempt first) before anything is
 * looked up; the change and its audit entry are one transaction.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const visitor = await backOfficeVisitorOf(request, context, "owner");
  const { submission, refused } = await readSubmission(request, roleChangeSchema);
  if (refused) return refused;
  const accounts = accountsFor(request, context);
  const identity = await accounts.backOffice.confirm(submission.value.password);
  if (identity) return refusedSubmission(submission, identity, identityRefusals("password"));
  const { email, role } = submission.value;
  const change = await changeRole(context.get(servicesContext).database.db, visitor.actor, email, role);
  if (!change.ok) {
    return change.reason === "no-account"
      ? failedSubmission(submission, 404, { fieldErrors: { email: [PEOPLE_MESSAGES.noAccount] } })
      : failedSubmission(submission, 409, { formErrors: [PEOPLE_MESSAGES.lastOwner] });
  }
  const done = change.changed
    ? PEOPLE_MESSAGES.changed(change.person.email, ROLE_LABELS[role].toLowerCase())
    : PEOPLE_MESSAGES.unchanged(change.person.email);
  return data({ result: submission.reply({ resetForm: true }), done });
}

export default function People({ loaderData, actionData }: Route.ComponentProps) {
  const { people, hasPassword } = loaderData;
  return (
    <BackOfficePage
      title="People"
      intro="Staff manage products, stock and orders; owners also manage people and settings."
    >
      <div className="space-y-8">
        <BackOfficeTable caption="People who may enter the back office">
          <thead className={tableHeadClasses}>
            <tr>
              <th scope="col" className="px-3 py-2">
                Name
              </th>
              <th scope="col" className="px-3 py-2">
                Email
              </th>
              <th scope="col" className="px-3 py-2">
                Role
              </th>
            </tr>
          </thead>
          <tbody>
            {people.map((person) => (
              <tr key={person.id}>
                <td className={tableCellClasses}>{person.name}</td>
                <td className={`${tableCellClasses} [overflow-wrap:anywhere]`}>{person.email}</td>
                <td className={tableCellClasses}>{ROLE_LABELS[person.role]}</td>
              </tr>
            ))}
          </tbody>
        </BackOfficeTable>
        <PeopleForm answer={actionData} hasPassword={hasPassword} />
      </div>
    </BackOfficePage>
  );
}
