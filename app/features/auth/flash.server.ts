import { flashMessages } from "~/utils/flash.server";
import { MESSAGES } from "./auth-schema";

/** The account pages' toasts that follow a redirect (the mechanism: app/utils/flash.server.ts). */
const accountFlash = flashMessages({
  "logged-in": { kind: "success", message: MESSAGES.loginSuccess },
  "signed-up": { kind: "success", message: MESSAGES.signUpSuccess },
  "logged-out": { kind: "success", message: MESSAGES.loggedOut },
  "google-signed-in": { kind: "success", message: MESSAGES.googleSuccess },
  "google-failed": { kind: "error", message: MESSAGES.googleFailed },
  "google-not-linked": { kind: "error", message: MESSAGES.googleNotLinked },
  "password-changed": { kind: "success", message: MESSAGES.passwordChanged },
  "email-verified": { kind: "success", message: MESSAGES.emailVerified },
  "verification-sent": { kind: "success", message: MESSAGES.verificationSent },
  "already-verified": { kind: "success", message: MESSAGES.alreadyVerified },
  "email-changed": { kind: "success", message: MESSAGES.emailChanged },
  "profile-saved": { kind: "success", message: MESSAGES.profileSaved },
  "password-updated": { kind: "success", message: MESSAGES.passwordUpdated },
  "session-ended": { kind: "success", message: MESSAGES.sessionEnded },
  "other-sessions-ended": { kind: "success", message: MESSAGES.otherSessionsEnded },
  "account-deleted": { kind: "success", message: MESSAGES.accountDeleted },
});

export const setFlash = accountFlash.set;
export const takeFlash = accountFlash.take;
