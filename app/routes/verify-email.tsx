import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { pageMeta } from "~/components/layout/page-meta";
import { buttonClasses } from "~/components/ui/button";
import { accountsFor } from "~/context.server";
import { linkTokenSchema, MESSAGES, verifyEmailSchema } from "~/features/auth/auth-schema";
import { AuthCard } from "~/features/auth/components/auth-card";
import { LinkExpired } from "~/features/auth/components/link-expired";
import { setFlash } from "~/features/auth/flash.server";
import { loginPath, safeRedirectPath } from "~/features/auth/redirect";
import { readForm, refusalFor, retryAfterHeaders } from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/verify-email";

export function meta() {
  return pageMeta({
    title: "Confirm your email | Backline",
    description: "Confirm your Backline account's email.",
    noindex: true,
  });
}

export const headers = retryAfterHeaders;

/**
 * The link from the confirmation email shows a button; only the click (a
 * POST) uses the link up, so a mail scanner that opens every link in an
 * email cannot. Without a token, the signed-in shopper can ask for a new link.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { sessions } = accountsFor(request, context);
  const url = new URL(request.url);
  const { user } = await sessions.current();
  // The page also answers after its own form posts: it never redirects, so the action's answer is seen.
  const signedIn = { email: user?.email ?? null, verified: user?.emailVerified ?? false };
  if (url.searchParams.has("token")) {
    const parsed = linkTokenSchema.safeParse({ token: url.searchParams.get("token") });
    return data(
      { token: parsed.success ? parsed.data.token : null, malformed: !parsed.success, ...signedIn },
      { status: parsed.success ? 200 : 400 },
    );
  }
  return { token: null, malformed: false, ...signedIn };
}

type ActionAnswer = { problem: string; retryAfterSeconds?: number };

export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: verifyEmailSchema });
  if (submission.status !== "success") {
    return data<ActionAnswer>({ problem: MESSAGES.verifyLinkInvalid }, { status: 400 });
  }
  const input = submission.value;
  const { user } = await accounts.sessions.current();
  if (input.intent === "confirm") {
    // Only the account's owner, signed in, confirms its email: otherwise
    // whoever registered someone else's address would get it confirmed by
    // its owner's innocent click. Signed out, the shopper logs in and comes back.
    if (!user) throw redirect(loginPath(`/verify-email?token=${encodeURIComponent(input.token)}`));
    const result = await accounts.emailLinks.verifyEmail(input.token, user.id);
    if (result.ok) {
      const flash = await setFlash(
        result.changed ? "email-changed" : "email-verified",
        accounts.secureCookies,
      );
      throw redirect("/", { headers: { "Set-Cookie": flash } });
    }
    // A second click after the first one worked: say so, not "expired".
    if (result.reason === "invalid-token" && user.emailVerified) {
      throw redirect("/", {
        headers: { "Set-Cookie": await setFlash("already-verified", accounts.secureCookies) },
      });
    }
    return failure(result);
  }
  if (!user) throw redirect(loginPath("/verify-email"));
  const result = await accounts.emailLinks.sendEmailVerification(user);
  const back = safeRedirectPath(input.returnTo, "/verify-email");
  if (result.ok)
    throw redirect(back, {
      headers: { "Set-Cookie": await setFlash("verification-sent", accounts.secureCookies) },
    });
  if (result.reason === "already-verified") {
    throw redirect(back, {
      headers: { "Set-Cookie": await setFlash("already-verified", accounts.secureCookies) },
    });
  }
  return failure(result);
}

/** A refused link or request: the page says what went wrong instead of its button. */
function failure(
  result:
    | { ok: false; reason: "invalid-token" }
    | { ok: false; reason: "rate-limited"; retryAfterSeconds: number }
    | { ok: false; reason: "unavailable" },
) {
  const { status, message, headers } = refusalFor(result, {
    "invalid-token": { status: 410, message: MESSAGES.verifyLinkInvalid },
  });
  return data<ActionAnswer>({ problem: message }, { status, headers });
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction === "/verify-email";
  const problem = actionData?.problem ?? (loaderData.malformed ? MESSAGES.verifyLinkInvalid : null);

  if (problem) {
    return (
      <AuthCard title="Confirm your email">
        <LinkExpired message={problem} action={{ to: "/verify-email", label: "Send me a new link" }} />
      </AuthCard>
    );
  }

  if (loaderData.token && !loaderData.email) {
    return (
      <AuthCard title="Confirm your email">
        <p className="text-slate-700">Log in to the account this email is for, and confirm it right after.</p>
        <Link
          to={loginPath(`/verify-email?token=${encodeURIComponent(loaderData.token)}`)}
          className={buttonClasses("primary", "md", "mt-6 w-full")}
        >
          Log in to confirm
        </Link>
      </AuthCard>
    );
  }

  if (loaderData.token) {
    return (
      <AuthCard title="Confirm your email">
        <p className="mb-6 text-slate-700">One click and your email is confirmed.</p>
        <Form method="post" action="/verify-email">
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="token" value={loaderData.token} />
          <button type="submit" disabled={submitting} className={buttonClasses("primary", "md", "w-full")}>
            Confirm my email
          </button>
        </Form>
      </AuthCard>
    );
  }

  if (!loaderData.email) {
    return (
      <AuthCard title="Confirm your email">
        <p className="text-slate-700">Log in, and you can ask for a new confirmation link here.</p>
        <Link to={loginPath("/verify-email")} className={buttonClasses("primary", "md", "mt-6 w-full")}>
          Log in
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Confirm your email">
      {loaderData.verified ? (
        <Status>{MESSAGES.alreadyVerified}</Status>
      ) : (
        <>
          <Status>
            Your email, <strong className="font-semibold break-all">{loaderData.email}</strong>, is not
            confirmed yet. We can send a link to it that confirms it; the link works for 24 hours.
          </Status>
          <Form method="post" action="/verify-email" className="mt-6">
            <input type="hidden" name="intent" value="send" />
            <button type="submit" disabled={submitting} className={buttonClasses("primary", "md", "w-full")}>
              Send me a new link
            </button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}

function Status({ children }: { children: React.ReactNode }) {
  return <p className="text-slate-700">{children}</p>;
}
