import type { ReactNode } from "react";
import { type ButtonVariant, buttonClasses } from "~/components/ui/button";

/** One task of the account page (profile, email, password, sessions, deletion), under its own heading. */
export function AccountSection({
  id,
  title,
  children,
  tone = "plain",
}: {
  id: string;
  title: string;
  children: ReactNode;
  tone?: "plain" | "danger";
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      id={id}
      className={`rounded-2xl border bg-white p-5 shadow-sm sm:p-6 ${tone === "danger" ? "border-red-300" : "border-slate-200"}`}
    >
      <h2 id={`${id}-title`} className="text-xl font-bold text-slate-900">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** A form's button, disabled while that very form is being sent. */
export function AccountSubmit({
  sending,
  children,
  variant = "primary",
}: {
  sending: boolean;
  children: ReactNode;
  variant?: ButtonVariant;
}) {
  return (
    <button type="submit" disabled={sending} className={buttonClasses(variant, "md")}>
      {children}
    </button>
  );
}
