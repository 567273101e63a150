import { useEffect, useRef, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { usePopover } from "~/components/ui/popover";
import type { SessionUser } from "../session-user";

/**
 * The signed-in shopper's photo in the navbar (initials when there is none or
 * it does not load); it opens a panel with the name, the email, the account's
 * pages and Log out.
 * The photo URL is the user's own text: it is only ever an <img src> (http(s)
 * only, checked on the way in), never a link or markup.
 */
export function AccountMenu({ user }: { user: SessionUser }) {
  const menu = usePopover();
  const [photoFailed, setPhotoFailed] = useState(false);

  const photo = useRef<HTMLImageElement>(null);
  // A new photo gets a new chance to load; one that failed before hydration
  // (no onError then) is caught here.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the photo changes
  useEffect(() => {
    const image = photo.current;
    setPhotoFailed(Boolean(image?.complete && image.naturalWidth === 0));
  }, [user.image]);

  const showPhoto = Boolean(user.image) && !photoFailed;
  const location = useLocation();
  const shown = initials(user.name);
  return (
    <>
      <button
        {...menu.trigger}
        // The name holds what the button shows (the initials), then whose menu it is.
        aria-label={showPhoto ? `Account menu for ${user.name}` : `${shown}: account menu for ${user.name}`}
        className="flex size-10 items-center justify-center overflow-hidden rounded-full bg-indigo-100 font-semibold text-indigo-700 ring-offset-2 hover:ring-2 hover:ring-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {showPhoto ? (
          <img
            ref={photo}
            src={user.image ?? undefined}
            alt=""
            referrerPolicy="no-referrer"
            onError={() => setPhotoFailed(true)}
            // Until the page's scripts run (or without them), a photo that fails shows the
            // initials through ::after, which browsers draw only over a broken image.
            data-initials={shown}
            className="relative size-full object-cover after:absolute after:inset-0 after:flex after:items-center after:justify-center after:bg-indigo-100 after:content-[attr(data-initials)]"
          />
        ) : (
          <span aria-hidden="true">{shown}</span>
        )}
      </button>
      <div
        {...menu.panel}
        // Below the navbar, lined up with the right edge of the page's content.
        className="fixed top-[4.5rem] right-[max(1rem,calc((100%-80rem)/2+2rem))] bottom-auto left-auto m-0 w-64 max-w-[calc(100%-2rem)] rounded-xl border border-slate-200 bg-white p-4 shadow-lg"
      >
        <p className="truncate font-semibold text-slate-900">{user.name}</p>
        <p className="truncate text-sm text-slate-600">{user.email}</p>
        <Link
          to="/account"
          className="mt-3 block rounded-lg border border-slate-500 px-3 py-2 text-center text-sm font-semibold text-slate-800 hover:bg-slate-50"
        >
          Your account
        </Link>
        <Link
          to="/account/orders"
          className="mt-2 block rounded-lg border border-slate-500 px-3 py-2 text-center text-sm font-semibold text-slate-800 hover:bg-slate-50"
        >
          Your orders
        </Link>
        <Form method="post" action="/logout" className="mt-2">
          {/* Logging out leaves the shopper where they are, when that page is public. */}
          <input type="hidden" name="returnTo" value={location.pathname + location.search} />
          <button
            type="submit"
            className="w-full rounded-lg bg-slate-900 px-3 py-2 text-sm font-semibold text-white hover:bg-slate-700"
          >
            Log out
          </button>
        </Form>
      </div>
    </>
  );
}

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => Array.from(part)[0]?.toUpperCase() ?? "")
    .join("");
  return letters || "?";
}
