import type { ReactNode } from "react";

/** The frame of the login and sign-up pages. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="flex flex-1 items-start justify-center px-4 py-12 sm:py-16">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-center text-3xl font-extrabold tracking-tight text-slate-900">{title}</h1>
        <div className="mt-8">{children}</div>
      </div>
    </main>
  );
}

/** A form-wide message (failed login, taken email), also shown as a toast; the only one without JavaScript. */
export function FormMessage({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p
      id={id}
      className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-800"
    >
      {message}
    </p>
  );
}
