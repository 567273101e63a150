import { Form, useSubmit } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { useHydrated } from "~/utils/hydrated";
import type { ValueState, VariantChoice } from "../variant-choice";

/** What a value's state adds to its name, in words (colour and strike-through only repeat it). */
const STATE_WORDS: Record<ValueState, string | null> = {
  available: null,
  "sold-out": "sold out",
  "not-made": "not made",
};

/**
 * The product page's options: one labelled radio group per option (a
 * swatch beside a colour's name where the owner gave one), in a GET form
 * that renders the chosen variant. Without JavaScript, "Show this choice"
 * sends it; with it, a choice is sent once made and the page stays where it
 * is, focus on the radio chosen.
 */
export function VariantPicker({
  choice,
  action,
  keep,
}: {
  choice: Pick<VariantChoice, "options" | "selected">;
  /** The product page's own path. */
  action: string;
  /** The address's other parameters (the listing it came from), kept through a choice. */
  keep: [string, string][];
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  return (
    <Form
      // Another product's page is another form: its radios start from its own choice.
      key={action}
      method="get"
      action={action}
      preventScrollReset
      replace
      onChange={(event) => submit(event.currentTarget, { preventScrollReset: true, replace: true })}
      className="space-y-4"
    >
      {keep.map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
      {choice.options.map((option, position) => (
        <fieldset key={option.name}>
          <legend className="text-sm font-semibold text-slate-800">
            {option.name}
            {choice.selected[position] ? (
              <span className="font-normal text-slate-700">{`: ${choice.selected[position]}`}</span>
            ) : null}
          </legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {option.values.map((value) => {
              const words = STATE_WORDS[value.state];
              return (
                <label
                  key={value.value}
                  className={[
                    "relative inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-500 bg-white px-3 py-2 text-sm text-slate-900",
                    "has-[:checked]:border-indigo-700 has-[:checked]:bg-indigo-50 has-[:checked]:ring-2 has-[:checked]:ring-indigo-700",
                    "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-700",
                  ].join(" ")}
                >
                  <input
                    type="radio"
                    name={`option${position + 1}`}
                    value={value.value}
                    defaultChecked={choice.selected[position] === value.value}
                    className="sr-only"
                  />
                  {value.swatch ? (
                    <span
                      aria-hidden="true"
                      className="size-5 shrink-0 rounded-full border border-slate-500"
                      style={{ backgroundColor: value.swatch }}
                    />
                  ) : null}
                  <span className={words ? "text-slate-700 line-through decoration-slate-500" : undefined}>
                    {value.value}
                  </span>
                  {words ? <span className="text-xs text-slate-700">{`(${words})`}</span> : null}
                </label>
              );
            })}
          </div>
        </fieldset>
      ))}
      {hydrated ? null : (
        <button type="submit" className={buttonClasses("secondary", "sm")}>
          Show this choice
        </button>
      )}
    </Form>
  );
}
