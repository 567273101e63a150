import { Link } from "react-router";
import { pageMeta } from "~/components/layout/page-meta";
import { buttonClasses } from "~/components/ui/button";
import { servicesContext } from "~/context.server";
import { unlessUnavailable } from "~/features/catalog/browsing/catalog-api.server";
import { shopHref } from "~/features/catalog/browsing/catalog-url";
import type { Route } from "./+types/about";

/** The shop's brands and categories, as its catalogue holds them; the page reads fine without them. */
export async function loader({ context }: Route.LoaderArgs) {
  const values = await unlessUnavailable(context.get(servicesContext).catalog.facetValues());
  return { facets: values?.value ?? null };
}

export function meta() {
  return pageMeta({
    title: "About | Backline",
    description:
      "Backline is a small online shop for electronics, fitness, home and outdoor gear, run by people who use what they sell.",
  });
}

export default function About({ loaderData: { facets } }: Route.ComponentProps) {
  const facts = [
    { value: "31,000+", label: "community members" },
    ...(facets
      ? [
          { value: String(facets.brands.length), label: "brands we trust" },
          { value: String(facets.categories.length), label: "categories" },
        ]
      : []),
  ];
  return (
    <main id="main" className="mx-auto w-full max-w-4xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
      <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">About us</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
        A small shop for the gear behind your day
      </h1>
      <p className="mt-5 text-lg leading-8 text-slate-600">
        Backline began as a stall at the back of a rehearsal room, selling the cables, stands and small
        gadgets musicians kept forgetting. Today we carry a short, carefully chosen range of electronics,
        fitness gear, home appliances, home goods and outdoor kit, from brands we use ourselves.
      </p>

      <dl className="mt-10 grid gap-4 sm:grid-cols-3">
        {facts.map((fact) => (
          <div key={fact.label} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <dt className="text-sm text-slate-600">{fact.label}</dt>
            <dd className="mt-1 text-3xl font-extrabold tracking-tight text-slate-900">{fact.value}</dd>
          </div>
        ))}
      </dl>

      <div className="mt-12 grid gap-10 sm:grid-cols-2">
        <section>
          <h2 className="text-xl font-bold text-slate-900">What we stand for</h2>
          <ul className="mt-4 space-y-3 text-slate-600">
            <li>Fewer, better products: everything in the shop has been tried by someone on the team.</li>
            <li>Honest descriptions and real prices, with no pop-ups and no countdown timers.</li>
            <li>Help from people who know the gear, by email or phone.</li>
          </ul>
        </section>
        {facets ? (
          <section>
            <h2 className="text-xl font-bold text-slate-900">Brands we carry</h2>
            <ul className="mt-4 flex flex-wrap gap-2">
              {facets.brands.map((brand) => (
                <li key={brand.value}>
                  <Link
                    to={shopHref({ band: [brand.value] })}
                    className="inline-block rounded-full border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:border-indigo-600 hover:text-indigo-700"
                  >
                    {brand.label}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>

      <div className="mt-14 flex flex-col items-start gap-4 rounded-2xl bg-indigo-600 p-8 text-white sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-xl font-bold">Ready to look around?</h2>
          <p className="mt-1 text-indigo-100">
            Filter by brand, category and price to find the right thing quickly.
          </p>
        </div>
        <Link to="/" className={buttonClasses("secondary", "md", "border-transparent")}>
          Browse the shop
        </Link>
      </div>
    </main>
  );
}
