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
