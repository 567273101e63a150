import { useState } from "react";
import { Form } from "react-router";
import type { SessionUser } from "../session-user";

/** The signed-in shopper's photo in the navbar; it opens a menu with name, email and Log out. */
export function AccountMenu({ user }: { user: SessionUser }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="relative">
      <button
        type="button"
        aria-label="Account menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        className="flex size-10 items-center justify-center overflow-hidden rounded-full bg-indigo-100 font-semibold text-indigo-700"
      >
        {user.image ? <img src={user.image} alt="" className="size-full object-cover" /> : initials(user.name)}
      </button>
      {open ? (
        <div className="absolute right-0 z-20 mt-2 w-64 rounded-lg border border-slate-200 bg-white p-4 shadow-lg">
          <p className="font-semibold">{user.name}</p>
          <p className="truncate text-sm text-slate-600">{user.email}</p>
          <Form method="post" action="/logout" className="mt-3">
            <button type="submit" className="w-full rounded-md bg-slate-900 px-3 py-2 text-sm font-medium text-white">
              Log out
            </button>
          </Form>
        </div>
      ) : null}
    </div>
  );
}

export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join("");
}
