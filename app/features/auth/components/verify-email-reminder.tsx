import { Form, useLocation } from "react-router";
import type { SessionUser } from "../session-user";

/**
 * A quiet line under the navbar while the signed-in shopper's email is not
 * confirmed (a password account before it follows the sign-up email's link,
 * or an identity whose provider did not vouch for the email): the account
 * works without it, so it asks, never blocks. Its one button sends a link and
 * comes back to the same page.
 */
export function VerifyEmailReminder({ user }: { user: SessionUser | null }) {
  const location = useLocation();
  if (!user || user.emailVerified) return null;
  return (
    <section aria-label="Confirm your email" className="border-b border-amber-200 bg-amber-50">
      <Form
        method="post"
        action="/verify-email"
        className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 text-sm text-amber-950 sm:px-6 lg:px-8"
      >
        <p>
          Your email, <strong className="font-semibold break-all">{user.email}</strong>, is not confirmed yet.
        </p>
        <input type="hidden" name="intent" value="send" />
        <input type="hidden" name="returnTo" value={location.pathname + location.search} />
        <button
          type="submit"
          className="min-h-6 font-semibold text-amber-950 underline underline-offset-2 hover:no-underline"
        >
          Send me a confirmation link
        </button>
      </Form>
    </section>
  );
}
