import { isRouteErrorResponse, Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";

interface ErrorPageProps {
  /** "404", "Error": the small label above the title. */
  eyebrow: string;
  title: string;
  message: string;
  /** Developer detail (stack trace): only ever passed in development. */
  detail?: string;
}

/** A friendly full page for "not found" and for anything that went wrong. */
export function ErrorPage({ eyebrow, title, message, detail }: ErrorPageProps) {
  return (
    <main
      id="main"
      className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center px-4 py-20 text-center sm:py-28"
    >
      <p className="text-sm font-bold tracking-widest text-indigo-700 uppercase">{eyebrow}</p>
      <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">{title}</h1>
      <p className="mt-5 text-base leading-7 text-slate-600">{message}</p>
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClasses("primary")}>
          Back to the shop
        </Link>
        <Link to="/contact" className={buttonClasses("secondary")}>
          Contact us
        </Link>
      </div>
      {detail ? (
        <pre className="mt-12 w-full overflow-auto rounded-xl bg-slate-900 p-4 text-left text-xs text-slate-100">
          {detail}
        </pre>
      ) : null}
    </main>
  );
}

export const NOT_FOUND_MESSAGE =
  "We couldn't find that page. It may have moved, or the link may be mistyped.";

/**
 * The shop's error page for what a route threw: a 404 as "Page not found",
 * anything else as "Something went wrong" with the message the server gave
 * (a string), if any. Used by the root and by the back office for visitors
 * who are not its staff, so both answer alike.
 */
export function errorPageProps(error: unknown): ErrorPageProps {
  let page = {
    eyebrow: "Error",
    title: "Something went wrong",
    message: "Sorry, this page could not be shown. Please try again in a moment.",
  };
  if (isRouteErrorResponse(error)) {
    page =
      error.status === 404
        ? { eyebrow: "404", title: "Page not found", message: NOT_FOUND_MESSAGE }
        : {
            ...page,
            eyebrow: `Error ${error.status}`,
            message: typeof error.data === "string" && error.data ? error.data : page.message,
          };
  }
  // A stack trace helps a developer and nobody else: development builds only.
  const detail = import.meta.env.DEV && error instanceof Error ? (error.stack ?? error.message) : undefined;
  return { ...page, detail };
}

/** The error page's title and description, for the route's `meta`. */
export function errorPageMeta(error: unknown) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return [
    { title: notFound ? "Page not found | Backline" : "Something went wrong | Backline" },
    {
      name: "description",
      content: "Backline, a small online shop for electronics, fitness, home and outdoor gear.",
    },
    { name: "robots", content: "noindex" },
  ];
}
