import { shopApiDocument } from "~/api-document.server";
import { ApiReference } from "~/components/api/api-reference";
import { pageMeta } from "~/components/layout/page-meta";
import type { Route } from "./+types/api-reference";

/** GET /docs/api: the JSON API's reference, drawn from /openapi.json's document. */
export function loader() {
  return { document: shopApiDocument() };
}

export function meta() {
  return pageMeta({
    title: "JSON API | Backline",
    description:
      "The Backline shop's JSON API: the catalogue's products, counts and facets, and a user's own record.",
  });
}

export default function ApiReferencePage({ loaderData: { document } }: Route.ComponentProps) {
  return (
    // Break-words: parameter examples such as `category=outdoor&category=fitness` are single long words.
    <main id="main" className="mx-auto w-full max-w-4xl px-4 py-12 break-words sm:px-6 sm:py-16 lg:px-8">
      <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">For developers</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">The JSON API</h1>
      <ApiReference document={document} />
    </main>
  );
}
