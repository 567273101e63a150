import { type ChangeEvent, type FormEvent, useEffect, useState } from "react";
import type { z } from "zod";
import { fieldErrors } from "../auth-schema";

type Errors = Record<string, string | undefined>;

/**
 * Client-side messages from the same zod schema the server enforces: a field
 * is checked as the user types, the whole form when it is submitted (an
 * invalid form is not sent). Messages from the server replace them after a
 * submission.
 */
export function useFieldValidation(schema: z.ZodObject, serverErrors: Errors | undefined) {
  const [errors, setErrors] = useState<Errors>(serverErrors ?? {});
  useEffect(() => setErrors(serverErrors ?? {}), [serverErrors]);

  const validateField = (name: string, value: string) => {
    const field = schema.shape[name] as z.ZodType | undefined;
    if (!field) return;
    const result = field.safeParse(value);
    setErrors((current) => ({
      ...current,
      [name]: result.success ? undefined : result.error.issues[0]?.message,
    }));
  };

  return {
    errors,
    onChange(event: ChangeEvent<HTMLFormElement>) {
      const target = event.target as unknown as HTMLInputElement;
      if (target.name && target.type !== "hidden") validateField(target.name, target.value);
    },
    onSubmit(event: FormEvent<HTMLFormElement>) {
      const values = Object.fromEntries(
        [...new FormData(event.currentTarget)].filter(
          (entry): entry is [string, string] => typeof entry[1] === "string",
        ),
      );
      const result = schema.safeParse(values);
      if (result.success) return;
      event.preventDefault();
      const next = fieldErrors(result.error) as Errors;
      setErrors(next);
      const first = Object.keys(schema.shape).find((name) => next[name]);
      if (first) event.currentTarget.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
    },
  };
}
