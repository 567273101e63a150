import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { FormMessage } from "~/components/forms/field";
import { buttonClasses } from "~/components/ui/button";
import type { ImportCheck, LineProblem, NamedProducts } from "../../core/catalog-import-schema";

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

const where = ({ line, column }: LineProblem) => `Line ${line}${column ? `, ${column}` : ""}`;

/** Every bad line of the file, each with its number and what is wrong, in the file's order. */
export function LineProblems({
  id,
  title,
  problems,
  total,
}: {
  id: string;
  title: string;
  problems: LineProblem[];
  total: number;
}) {
  if (total === 0) return null;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-red-300 bg-red-50 p-4">
      <h2 id={id} className="text-lg font-bold text-red-900">
        {title}
      </h2>
      {total > problems.length ? (
        <p className="mt-1 text-sm text-red-900">
          The first {problems.length.toLocaleString("en")} of {total.toLocaleString("en")}:
        </p>
      ) : null}
      <ul className="mt-2 space-y-1 text-sm text-slate-900">
        {problems.map((problem, at) => (
          // One line may have several problems: the position keeps the keys apart.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
          <li key={at}>
            <span className="font-semibold">{where(problem)}:</span> {problem.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ProductsPart({
  title,
  part,
  folded = false,
}: {
  title: string;
  part: NamedProducts;
  folded?: boolean;
}) {
  const names =
    part.named.length > 0 ? (
      <span className="break-words">
        {part.named
          .map((product) => (product.name ? `${product.name} (${product.sku})` : product.sku))
          .join(", ")}
        {part.count > part.named.length
          ? `, and ${(part.count - part.named.length).toLocaleString("en")} more`
          : ""}
        .
      </span>
    ) : null;
  return (
    <div>
      <dt className="font-semibold text-slate-900">
        {title}: {part.count.toLocaleString("en")}
      </dt>
      <dd className="mt-1 text-sm text-slate-700">
        {folded && names ? (
          <details>
            <summary className="cursor-pointer font-semibold text-indigo-700 underline underline-offset-4">
              Show which
            </summary>
            <p className="mt-1">{names}</p>
          </details>
        ) : (
          names
        )}
      </dd>
    </div>
  );
}

function facetLines(name: string, changes: NonNullable<ImportCheck["changes"]>["brands"]): string[] {
  const labelled = ({ value, label }: { value: string; label: string }) =>
    value === label ? label : `${label} (${value})`;
  const lines: string[] = [];
  if (changes.added.length > 0) lines.push(`New ${name}: ${changes.added.map(labelled).join(", ")}.`);
  if (changes.relabelled.length > 0)
    lines.push(
      `Relabelled ${name}: ${changes.relabelled.map(({ value, label }) => `${value} → ${label}`).join(", ")}.`,
    );
  return lines;
}

/** The dry run: what the file is, its bad lines, and what importing its good lines would change. */
export function ImportCheckSummary({ check }: { check: ImportCheck }) {
  const kind = check.kind === "shopify" ? "a Shopify product export" : "a catalogue file";
  const changes = check.changes;
  return (
    <div className="space-y-6">
      <p className="text-slate-800">
        This is {kind} with {count(check.productCount, "product")}
        {check.problemCount > 0
          ? `: ${count(check.validRows, "good row")}, ${count(check.problemCount, "problem")}`
          : ""}
        .
        {check.ignoredColumns.length > 0
          ? ` Not imported (the shop has no such product field): ${check.ignoredColumns.join(", ")}.`
          : ""}
        {check.notes.map((note) => ` ${note}`).join("")}
      </p>
      <LineProblems
        id="bad-lines"
        title={`Bad lines (${check.problemCount.toLocaleString("en")})`}
        problems={check.problems}
        total={check.problemCount}
      />
      {changes ? (
        <section aria-labelledby="dry-run" className="rounded-lg border border-slate-300 p-4">
          <h2 id="dry-run" className="text-lg font-bold text-slate-900">
            What importing {check.problemCount > 0 ? "the good rows" : "it"} changes
          </h2>
          <dl className="mt-3 space-y-3">
            <ProductsPart title="New products" part={changes.added} />
            <ProductsPart title="Changed products" part={changes.updated} />
            <div>
              <dt className="font-semibold text-slate-900">
                Unchanged products: {changes.unchanged.toLocaleString("en")}
              </dt>
            </div>
            <ProductsPart
              title="Removed, only if you choose to remove what the file does not have"
              part={changes.removed}
              folded
            />
            {changes.ordered.count > 0 ? (
              <ProductsPart
                title="Kept though not in the file (an order names them)"
                part={changes.ordered}
              />
            ) : null}
          </dl>
          {[...facetLines("brands", changes.brands), ...facetLines("categories", changes.categories)].map(
            (line) => (
              <p key={line} className="mt-2 text-sm text-slate-800">
                {line}
              </p>
            ),
          )}
          {check.picturesToFetch > 0 ? (
            <p className="mt-2 text-sm text-slate-800">
              {count(check.picturesToFetch, "picture")} will be fetched from the web when you confirm; one
              that cannot be read is named in the result (a new product then shows a placeholder, an existing
              one keeps its picture).
            </p>
          ) : null}
        </section>
      ) : (
        <p className="rounded-lg border border-red-300 bg-red-50 p-4 font-medium text-red-900">
          The file cannot be read as a whole, so nothing of it can be imported. Fix the problem above and
          upload it again.
        </p>
      )}
      {changes ? (
        <LineProblems
          id="label-warnings"
          title="Labels not used"
          problems={changes.warnings}
          total={changes.warnings.length}
        />
      ) : null}
      <LineProblems
        id="picture-problems"
        title="Pictures that cannot be used"
        problems={check.pictureProblems}
        total={check.pictureProblems.length}
      />
    </div>
  );
}

/**
 * Confirm: a plain POST. With bad lines, the owner must choose to leave them
 * out (the command line's --skip-invalid); removing what the file does not
 * have is a choice too (--prune --yes).
 */
export function ImportConfirmForm({
  check,
  refusal,
}: {
  check: ImportCheck;
  refusal: { field?: string; message: string } | undefined;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  // A refusal sent back to this page (with JavaScript, the form stays mounted): the focus goes to
  // the box in error, or the form's message. Without JavaScript, autoFocus does the same.
  useEffect(() => {
    if (!refusal) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-message]')?.focus();
  }, [refusal]);
  const changes = check.changes;
  if (!changes) return null;
  const skipError = refusal?.field === "skipInvalid" ? refusal.message : undefined;
  return (
    <Form ref={formRef} method="post" className="max-w-xl space-y-4 rounded-lg border border-slate-300 p-4">
      <FormMessage
        id="confirm-message"
        errors={refusal && !refusal.field ? [refusal.message] : undefined}
        autoFocus
      />
      {check.problemCount > 0 ? (
        <div>
          <div className="flex items-start gap-3">
            <input
              id="skip-invalid"
              type="checkbox"
              name="skipInvalid"
              aria-invalid={skipError ? true : undefined}
              aria-describedby={skipError ? "skip-invalid-error" : undefined}
              // biome-ignore lint/a11y/noAutofocus: the refused box takes the focus, with or without JavaScript
              autoFocus={Boolean(skipError)}
              className="mt-1 h-5 w-5 rounded border-slate-500"
            />
            <label htmlFor="skip-invalid" className="text-slate-900">
              Leave out the {count(check.problemCount, "bad line")} and import the{" "}
              {count(check.validRows, "good row")}
            </label>
          </div>
          {skipError ? (
            <p id="skip-invalid-error" className="mt-1.5 text-sm font-medium text-red-700">
              {skipError}
            </p>
          ) : null}
        </div>
      ) : null}
      {changes.removed.count > 0 ? (
        <div className="flex items-start gap-3">
          <input id="prune" type="checkbox" name="prune" className="mt-1 h-5 w-5 rounded border-slate-500" />
          <label htmlFor="prune" className="text-slate-900">
            Also remove the {count(changes.removed.count, "product")} the file does not have
          </label>
        </div>
      ) : null}
      <button type="submit" className={buttonClasses("primary")}>
        Confirm the import
      </button>
    </Form>
  );
}
