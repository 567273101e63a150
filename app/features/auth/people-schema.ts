import { z } from "~/utils/zod";
import { ROLES } from "./roles";

/**
 * The back office's people form (/admin/people): an owner gives an account a
 * role — staff, owner, or back to shopper — and confirms with their password.
 * The same schema checks the form in the browser and on the server.
 */
export const roleChangeSchema = z.object({
  email: z
    .string({ error: "Enter the email of the account.", label: "Email" })
    .trim()
    .toLowerCase()
    .max(320, "An email has at most 320 characters.")
    .pipe(z.email("Enter the email of the account, like ada@example.com.")),
  role: z.enum(ROLES, { error: "Choose a role." }),
  /** The owner's own password (an account without one needs a recent sign-in instead). */
  password: z.string({ label: "Password" }).max(1024, "A password has at most 1,024 characters.").optional(),
});

export const PEOPLE_MESSAGES = {
  noAccount: "There is no account with this email. Ask them to sign up first, then give them a role.",
  lastOwner: "The shop must keep at least one owner: make someone else an owner first.",
  unchanged: (email: string) => `${email} already has this role; nothing changed.`,
  changed: (email: string, role: string) => `${email} is now ${role}.`,
} as const;
