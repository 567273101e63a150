import { useEffect, useState } from "react";
import { Link, useRevalidator } from "react-router";
import { useFocusWhenShown } from "~/components/forms/use-focus-when-shown";
import type { CatalogImportView, ImportResult } from "../../core/catalog-import-schema";
import { LineProblems } from "./catalog-import-check";

/** What the progress route answers: the row's progress, never its file or dry run. */
export type ImportProgressView = Pick<
  CatalogImportView,
  "status" | "progressDone" | "progressTotal" | "result" | "stalled"
>;

/** How often the page asks for the progress while an import is written. */
const POLL_MS = 500;

const stepOf = (result: ImportResult | null) => (result && "step" in result ? result.step : "Starting");

/**
 * While an import is written: with JavaScript, the progress route is asked
 * every half second and the page is read again once it is over; without,
 * the page refreshes itself (and offers a Refresh link).
 */
function useImportProgress(id: string, initial: ImportProgressView): ImportProgressView {
  const [progress, setProgress] = useState(initial);
  const { revalidate } = useRevalidator();
  useEffect(() => setProgress(initial), [initial]);
  useEffect(() => {
    if (initial.status !== "writing") return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const response = await fetch(`/admin/products/import/${id}/progress`, {
          headers: { Accept: "application/json" },
        });
        if (stopped) return;
        if (response.ok) {
          const latest = (await response.json()) as ImportProgressView;
          if (stopped) return;
          setProgress(latest);
          if (latest.status !== "writing") {
            await revalidate();
            return;
          }
        }
      } catch {
        // A dropped request: the next one asks again.
      }
      if (!stopped) timer = setTimeout(ask, POLL_MS);
    };
    timer = setTimeout(ask, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id, initial.status, revalidate]);
  return progress;
}

export function ImportProgress({ id, initial }: { id: string; initial: ImportProgressView }) {
  const progress = useImportProgress(id, initial);
  const step = stepOf(progress.result);
  const { progressDone: done, progressTotal: total } = progress;
  const counted = total > 0 ? `${done.toLocaleString("en")} of ${total.toLocaleString("en")}` : "";
  return (
    <section
      aria-labelledby="import-progress"
      className="max-w-xl space-y-3 rounded-lg border border-slate-300 p-4"
    >
      {/* Without JavaScript the page reads itself again every two seconds until the import is over. */}
      <noscript>
        <meta httpEquiv="refresh" content="2" />
      </noscript>
      <h2 id="import-progress" className="text-lg font-bold text-slate-900">
        Importing
      </h2>
      <label htmlFor="import-progress-bar" className="block text-sm font-semibold text-slate-800">
        {step}
        {counted ? `: ${counted}` : "…"}
      </label>
      <progress
        id="import-progress-bar"
        max={Math.max(total, 1)}
        value={total > 0 ? done : undefined}
        className="h-4 w-full appearance-none overflow-hidden rounded-full bg-slate-300 [&::-moz-progress-bar]:bg-indigo-600 [&::-webkit-progress-bar]:bg-slate-300 [&::-webkit-progress-value]:bg-indigo-600"
      />
      {/* Only the step is announced, not every count: a screen reader is not interrupted twice a second. */}
      <p role="status" className="text-sm text-slate-700">
        {progress.stalled
          ? "This import has not moved for minutes: the shop may have been restarted. Nothing of it was committed; upload the file again."
          : `${step}. The catalogue changes all at once when the import is written.`}
      </p>
      <Link to={`/admin/products/import/${id}`} className="text-sm font-semibold text-indigo-700 underline">
        Refresh
      </Link>
    </section>
  );
}

/** The result of a confirmed import: what it changed, or why it stopped. */
export function ImportResultView({ result, focus }: { result: ImportResult | null; focus: boolean }) {
  // Focused when it replaces the progress on this page; a page opened afresh focuses its h1 (the root's).
  const headingRef = useFocusWhenShown<HTMLHeadingElement>(focus && result && "outcome" in result);
  if (!result || !("outcome" in result)) return null;
  const failed = result.outcome === "failed";
  return (
    <section
      aria-labelledby="import-result"
      className={`max-w-xl space-y-3 rounded-lg border p-4 ${failed ? "border-red-300 bg-red-50" : "border-emerald-300 bg-emerald-50"}`}
    >
      <h2 id="import-result" ref={headingRef} tabIndex={-1} className="text-lg font-bold text-slate-900">
        {failed ? "The import failed" : "Import finished"}
      </h2>
      {result.outcome === "failed" ? <p className="text-red-900">{result.message}</p> : null}
      {result.outcome === "unchanged" ? (
        <p className="text-slate-900">The catalogue already matched the file: nothing was changed.</p>
      ) : null}
      {result.outcome === "imported" ? (
        <>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-slate-900 sm:grid-cols-4">
            {(
              [
                ["Added", result.counts.added],
                ["Changed", result.counts.updated],
                ["Removed", result.counts.removed],
                ["Unchanged", result.counts.unchanged],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <dt className="text-sm text-slate-700">{label}</dt>
                <dd className="text-xl font-bold">{value.toLocaleString("en")}</dd>
              </div>
            ))}
          </dl>
          {result.counts.keptAsOrdered > 0 ? (
            <p className="text-sm text-slate-900">
              {result.counts.keptAsOrdered.toLocaleString("en")} products not in the file were kept: an order
              names them.
            </p>
          ) : null}
          <LineProblems
            id="result-picture-problems"
            title="Pictures that could not be read"
            problems={result.pictureProblems}
            total={result.counts.pictureProblems}
          />
          <p className="text-sm text-slate-900">The shop shows the new catalogue now.</p>
        </>
      ) : null}
    </section>
  );
}
