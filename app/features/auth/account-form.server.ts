import type { z } from "~/utils/zod";
import type { Accounts } from "./auth.server";
import { MESSAGES } from "./auth-schema";
import { checkedSubmission, type RefusalAnswer, readForm, signedInOrToLogin } from "./route-helpers.server";

/*
 * What the routes of the account page's forms (/account/profile, /account/email,
 * /account/password, /account/delete) share: each reads its form the same way
 * and words a refused proof of identity the same way.
 */

/**
 * A form of the account page as its route reads it: a body that is not a web
 * form is answered 415, a visitor (or an ended session) is sent to log in and
 * back to /account, and a form that breaks its schema comes back 400 with its
 * messages (`refused`). Otherwise the signed-in shopper's checked submission.
 */
export async function signedInSubmission<Fields, Value>(
  accounts: Accounts,
  request: Request,
  schema: z.ZodType<Value, Fields>,
) {
  const form = await readForm(request);
  await signedInOrToLogin(accounts.sessions, "/account");
  return checkedSubmission(form, schema);
}

/**
 * The answers to a sensitive change refused for who asks (the password, the
 * email, the deletion: services/guards.server.ts): the wrong password next to
 * its field, anything else for the whole form.
 */
export function identityRefusals(passwordField: string) {
  return {
    "wrong-password": { status: 403, message: MESSAGES.currentPasswordWrong, field: passwordField },
    "sign-in-again": { status: 403, message: MESSAGES.signInAgain },
    "no-password": { status: 400, message: MESSAGES.noPasswordToChange },
  } satisfies Record<string, RefusalAnswer>;
}
