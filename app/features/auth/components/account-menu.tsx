import { useEffect, useId, useRef, useState } from "react";
import { Form, useLocation } from "react-router";
import type { SessionUser } from "../session-user";

/**
 * The signed-in shopper's photo in the navbar (initials when there is none or
 * it does not load); it opens a menu with the name, the email and Log out.
 * The photo URL is the user's own text: it is only ever an <img src> (http(s)
 * only, checked on the way in), never a link or markup.
 */
export function AccountMenu({ user }: { user: SessionUser }) {
  const [open, setOpen] = useState(false);
  const [photoFailed, setPhotoFailed] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const location = useLocation();

  const photo = useRef<HTMLImageElement>(null);
  // A new photo gets a new chance to load; one that failed before hydration
  // (no onError then) is caught here.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the photo changes
  useEffect(() => {
    const image = photo.current;
    setPhotoFailed(Boolean(image?.complete && image.naturalWidth === 0));
  }, [user.image]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: close on every navigation
  useEffect(() => setOpen(false), [location.key]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);

  const showPhoto = Boolean(user.image) && !photoFailed;
  return (
    <div ref={container} className="relative">
      <button
        type="button"
        aria-label="Account menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
        className="flex size-10 items-center justify-center overflow-hidden rounded-full bg-indigo-100 font-semibold text-indigo-700 ring-offset-2 hover:ring-2 hover:ring-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {showPhoto ? (
          <img
            ref={photo}
            src={user.image ?? undefined}
            alt=""
            referrerPolicy="no-referrer"
            onError={() => setPhotoFailed(true)}
            className="size-full object-cover"
          />
        ) : (
          <span aria-hidden="true">{initials(user.name)}</span>
        )}
      </button>
      <div
        id={menuId}
        hidden={!open}
        className="absolute right-0 z-40 mt-2 w-64 rounded-xl border border-slate-200 bg-white p-4 shadow-lg"
      >
        <p className="truncate font-semibold text-slate-900">{user.name}</p>
        <p className="truncate text-sm text-slate-600">{user.email}</p>
        <Form method="post" action="/logout" className="mt-3">
          <button
            type="submit"
            className="w-full rounded-lg bg-slate-900 px-3 py-2 text-sm font-semibold text-white hover:bg-slate-700"
          >
            Log out
          </button>
        </Form>
      </div>
    </div>
  );
}

export function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => Array.from(part)[0]?.toUpperCase() ?? "")
    .join("");
  return letters || "?";
}
