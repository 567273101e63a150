import { z } from "~/utils/zod";

/**
 * The account forms' rules, shared by the forms (messages as the user types)
 * and the server (the same rules enforced again): one schema per input.
 * Messages are PRODUCT.md's, word for word.
 */
const PASSWORD_MIN_LENGTH = 6;
const PASSWORD_MAX_LENGTH = 20;
/** The specification's special characters: a password needs one of these. Written here only. */
const PASSWORD_SPECIAL_CHARACTERS = "#?!@$%^&*-";
/** "# ? ! @ $ % ^ & * -", as messages show them. */
const SPECIALS_SHOWN = [...PASSWORD_SPECIAL_CHARACTERS].join(" ");

/** The password rules, shown under every new-password field (sign-up, reset, account page). */
export const PASSWORD_RULES = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, not a common password (such as Password1!), with an uppercase letter, a lowercase letter, a digit and one of ${SPECIALS_SHOWN}`;

export const MESSAGES = {
  passwordRequired: "Password is required.",
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  passwordClasses: `Password needs an uppercase letter, a lowercase letter, a digit and one of ${SPECIALS_SHOWN}`,
  passwordCommon: "This password is too common. Choose one that is harder to guess.",
  nameRequired: "Name is required.",
  nameTooLong: "Name must be at most 100 characters.",
  nameControlCharacters:
    "Name must not contain control characters (such as tabs, line breaks or text-direction marks).",
  emailRequired: "Email is required.",
  emailInvalid: "Enter a valid email address.",
  photoRequired: "Photo URL is required.",
  photoInvalid: "Photo URL must start with http:// or https://",
  photoTooLong: "Photo URL must be at most 2048 characters.",
  photoControlCharacters: "Photo URL must not contain spaces or control characters.",
  loginSuccess: "Logged in successfully.",
  googleSuccess: "Signed in with Google.",
  signUpSuccess: "Account created. Welcome!",
  emailTaken: "An account with this email already exists.",
  loginFailed: "Invalid email or password.",
  loggedOut: "Logged out.",
  googleFailed: "Google sign-in did not complete. Please try again.",
  googleNotLinked: "This email already has an account with a password. Log in with your password instead.",
  tooManyAttempts: (seconds: number) => `Too many attempts. Try again in ${waitInWords(seconds)}.`,
  unavailable:
    "We could not reach our accounts service just now. Nothing was changed: please try again in a moment.",
  resetLinkSent: (email: string) =>
    `If an account uses ${email}, we have sent it a link to choose a new password. The link works for 30 minutes; check your spam folder if it does not arrive.`,
  resetLinkInvalid: "This link has expired or has already been used. Ask for a new one below.",
  passwordChanged: "Your password has been changed. Log in with your new password.",
  emailVerified: "Your email is confirmed. Thank you!",
  verifyLinkInvalid: "This confirmation link has expired or has already been used.",
  verificationSent: "We have sent you a new confirmation link.",
  alreadyVerified: "Your email is already confirmed.",
  currentPasswordWrong: "That is not your current password.",
  noPasswordToChange: "This account signs in with Google and has no password to change.",
  signInAgain:
    "For your safety, sign in with Google again first: this needs a sign-in from the last 10 minutes.",
  profileSaved: "Your profile is saved.",
  passwordUpdated: "Your password is changed. You are signed out everywhere else.",
  emailChangeSent: (email: string) =>
    `We have sent a link to ${email}. Your email changes when you open it and confirm; until then it stays as it is.`,
  emailChanged: "Your email is changed.",
  sessionEnded: "That session is signed out.",
  otherSessionsEnded: "You are signed out everywhere else.",
  accountDeleted: "Your account and its data are deleted.",
} as const;

/** "45 seconds", "1 minute", "15 minutes", "2 hours": a wait as a person says it, rounded up. */
function waitInWords(seconds: number): string {
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`;
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 60) return plural(whole, "second");
  if (whole < 60 * 60) return plural(Math.ceil(whole / 60), "minute");
  return plural(Math.ceil(whole / 3600), "hour");
}

/**
 * Characters no name or URL needs, that would make stored text lie about
 * itself: control characters (C0, DEL and C1), line and paragraph separators,
 * and the bidirectional overrides that make "gnp.exe" read as "exe.png".
 */
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

const CHARACTER_CLASSES = [
  /[A-Z]/,
  /[a-z]/,
  /[0-9]/,
  new RegExp(`[${[...PASSWORD_SPECIAL_CHARACTERS].map((character) => `\\${character}`).join("")}]`),
];

/** One message per failing password, the first rule it breaks. */
export const passwordSchema = z
  .string({ error: MESSAGES.passwordRequired, label: "Password" })
  .superRefine((password, ctx) => {
    const message =
      password.length === 0
        ? MESSAGES.passwordRequired
        : password.length < PASSWORD_MIN_LENGTH
          ? MESSAGES.passwordTooShort
          : password.length > PASSWORD_MAX_LENGTH
            ? MESSAGES.passwordTooLong
            : CHARACTER_CLASSES.every((pattern) => pattern.test(password))
              ? null
              : MESSAGES.passwordClasses;
    if (message) ctx.addIssue({ code: "custom", message });
  });

export const emailSchema = z
  .string({ error: MESSAGES.emailRequired, label: "Email" })
  .trim()
  .min(1, MESSAGES.emailRequired)
  .max(254, MESSAGES.emailInvalid)
  .pipe(z.email({ error: MESSAGES.emailInvalid }))
  .transform((email) => email.toLowerCase())
  .describe("An email address; spaces around it are dropped, and it is kept in lower case.");

export const nameSchema = z
  .string({ error: MESSAGES.nameRequired, label: "Name" })
  .trim()
  .min(1, MESSAGES.nameRequired)
  .max(100, MESSAGES.nameTooLong)
  .refine((name) => !CONTROL_CHARACTERS.test(name), MESSAGES.nameControlCharacters);

/** Only http(s) URLs: never `javascript:`, `data:` or anything else a browser could run. */
function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const photoSchema = z
  .string({ error: MESSAGES.photoRequired, label: "Photo URL" })
  .trim()
  .min(1, MESSAGES.photoRequired)
  .max(2048, MESSAGES.photoTooLong)
  .refine((photo) => !CONTROL_CHARACTERS.test(photo) && !/\s/.test(photo), MESSAGES.photoControlCharacters)
  .refine(isHttpUrl, MESSAGES.photoInvalid);

export const signUpSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  photo: photoSchema,
  password: passwordSchema,
});

/**
 * Login applies the specification's password rules with sign-up's messages
 * (every account's password was made under them); a password that follows
 * them but is wrong gets 'Invalid email or password.', never more.
 */
export const loginSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
});

/** The secret of a link from an email (password reset, email confirmation): URL-safe characters only. */
const tokenSchema = z
  .string({ error: "This link is incomplete." })
  .regex(/^[A-Za-z0-9_-]{16,128}$/, "This link is incomplete.");

/** The tokens in the links: read from a page's address as from its form. */
export const linkTokenSchema = z.object({ token: tokenSchema });

export const forgotPasswordSchema = z.object({ email: emailSchema });

/** The new password follows the sign-up rules (and, on the server, the common-password check). */
export const resetPasswordSchema = z.object({ token: tokenSchema, password: passwordSchema });

/** `/verify-email`: confirm the link's email, or send the signed-in shopper a new link. */
export const verifyEmailSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("confirm"), token: tokenSchema }),
  z.object({ intent: z.literal("send"), returnTo: z.string().max(2048).optional() }),
]);

/** The password typed again to prove who asks (account page); its rules were checked when it was made. */
const currentPasswordSchema = z
  .string({ error: MESSAGES.passwordRequired, label: "Password" })
  .min(1, MESSAGES.passwordRequired)
  .max(128, MESSAGES.currentPasswordWrong);

/** `/account`'s forms, each sent to its own route: `/account/profile`, `/account/password`, … */
export const accountProfileSchema = z.object({
  name: nameSchema,
  /** Empty: no photo (the initials show). */
  photo: z
    .union([photoSchema, z.literal("").transform(() => null)])
    .optional()
    .transform((photo) => photo ?? null),
});

export const accountPasswordSchema = z.object({
  currentPassword: currentPasswordSchema,
  newPassword: passwordSchema,
});

export const accountEmailSchema = z.object({
  email: emailSchema,
  /** Absent for an account without a password (a recent sign-in stands in for it). */
  password: currentPasswordSchema.optional(),
});

export const accountDeleteSchema = z.object({
  password: currentPasswordSchema.optional(),
});

/** A session's id as Better Auth makes them (letters and digits): nothing else reaches the database. */
const sessionIdSchema = z
  .string({ error: "sessionId is missing." })
  .regex(/^[A-Za-z0-9_-]{1,200}$/, "sessionId must be a session's id (letters, digits, - and _).");

/** `/account/sessions/sign-out`: the session to end. */
export const accountSessionSchema = z.object({ sessionId: sessionIdSchema });

/** `POST /api/password-check`: a new password, as the form has it (never stored, never logged). */
export const passwordCheckSchema = z.object({
  password: z
    .string({ error: "password must be a string." })
    .min(1, MESSAGES.passwordRequired)
    .max(128, "password must be at most 128 characters."),
});

/** What `POST /api/password-check` answers. */
export const passwordCheckAnswerSchema = z.object({
  tooCommon: z.boolean().describe("The shop refuses this password as too common (or a disguise of one)."),
});

/**
 * A form's schema in the browser that also refuses the passwords the server
 * has called too common (`POST /api/password-check`, asked when the field is
 * left), so the shopper hears it before sending. The server checks again.
 * The field's own schema carries the check, so it holds whatever else the
 * form still lacks.
 */
export function refusingKnownCommonPasswords<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  field: keyof Shape & string,
  isKnownCommon: (password: string) => boolean,
): z.ZodObject<Shape> {
  const password = (schema.shape[field] as z.ZodType).refine(
    (value) => typeof value !== "string" || !isKnownCommon(value),
    MESSAGES.passwordCommon,
  );
  // The same fields and output: only the password's check is added.
  return schema.extend({ [field]: password }) as unknown as z.ZodObject<Shape>;
}

/** `PUT /user/api/create`: the signed-in user's own record. */
export const userRecordSchema = z.object({
  email: emailSchema,
  name: nameSchema,
  /** A photo is optional for accounts from an identity provider that has none; when given, http(s) only. */
  photo: z.union([photoSchema, z.null()]).optional(),
});

/** What `PUT /user/api/create` answers: the record as saved. */
export const userRecordAnswerSchema = z.object({
  id: z.answerString().describe("The account's id."),
  email: z.email(),
  name: z.answerString(),
  photo: z.answerString().nullable().describe("The photo's http(s) URL, or null when the account has none."),
});

export type UserRecordAnswer = z.infer<typeof userRecordAnswerSchema>;
export type PasswordCheckAnswer = z.infer<typeof passwordCheckAnswerSchema>;

export type SignUpInput = z.infer<typeof signUpSchema>;
export type LoginInput = z.infer<typeof loginSchema>;

/** Reads a form's string fields (a missing field reads as empty, as a browser would send it). */
export function formFields<K extends string>(form: FormData, names: readonly K[]): Record<K, string> {
  const fields = {} as Record<K, string>;
  for (const name of names) {
    const value = form.get(name);
    fields[name] = typeof value === "string" ? value : "";
  }
  return fields;
}
