import { z as zod } from "zod";

/*
 * zod's whole API as the shop uses it (~/utils/zod re-exports it as `z`),
 * with `z.string()` replaced by one that takes only plain text. Every text
 * input of the shop — form fields, JSON bodies, query parameters, the cells
 * of an imported file — is a `z.string()`, so none can let through what
 * PostgreSQL refuses to store (NUL in text, a lone surrogate in jsonb: a 500
 * before) or what no person types (control characters). A local export
 * outranks the one `export *` brings, so `string` here is the shop's.
 */
export * from "zod";

/** C0 and C1 control characters and DEL, but tab, line feed and carriage return (allowed on several lines). */
const CONTROL_CHARACTER = /(?![\t\n\r])\p{Cc}/u;
const LINE_BREAK_OR_TAB = /[\t\n\r]/;
/** In a `u` regular expression a surrogate matches only when it is not half of a pair. */
const LONE_SURROGATE = /\p{Cs}/u;

/** How a text field is named in its messages, beyond zod's own parameters. */
interface PlainTextOptions {
  /** The field's name as its form shows it ("Full name"); by default the key it is sent under. */
  label?: string;
  /** Text of several lines (a textarea): line breaks and tabs are allowed. */
  multiline?: boolean;
}

type StringParams = Exclude<Parameters<typeof zod.string>[0], string | undefined>;

/** The field's name as a message says it: its label, else the last key of its path. */
function nameOf(label: string | undefined, path: readonly PropertyKey[] | undefined): string {
  if (label) return label;
  const key = [...(path ?? [])].reverse().find((part) => typeof part === "string");
  return typeof key === "string" ? key : "This text";
}

/**
 * zod's string, refusing control characters (but line breaks and tabs with
 * `multiline`) and lone surrogates, with a message naming the field. These
 * checks come first, so theirs is the field's first message: the one forms
 * show and the API's `error.message` gives. (They do not abort the field's
 * other checks: an aborted branch of a union would lose its message.)
 */
export function string(params?: string | (StringParams & PlainTextOptions)): zod.ZodString {
  const {
    label,
    multiline = false,
    ...zodParams
  } = typeof params === "string" ? { error: params } : (params ?? {});
  return zod
    .string(zodParams)
    .refine((text) => !CONTROL_CHARACTER.test(text) && (multiline || !LINE_BREAK_OR_TAB.test(text)), {
      error: (issue) =>
        `${nameOf(label, issue.path)} must not contain control characters${multiline ? " (line breaks and tabs are allowed)" : ""}.`,
    })
    .refine((text) => !LONE_SURROGATE.test(text), {
      error: (issue) =>
        `${nameOf(label, issue.path)} must be valid Unicode text (it holds half of a surrogate pair).`,
    });
}

/**
 * zod's own string, unchecked: only for what the shop answers (the JSON API's
 * answers, as /openapi.json describes them), which may hold text stored
 * before the rule above. Never for what a client sends.
 */
export const answerString = zod.string;
