import { type FormMetadata, getFormProps, type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { FormMessage } from "./field";
import { useFailedSubmission } from "./use-failed-submission";

/**
 * A form that sends files: a plain multipart POST, so it works without
 * JavaScript; its form-wide message first, and the focus on what failed
 * after a refused submit (useFailedSubmission).
 */
export function FileUploadForm({
  form,
  result,
  className,
  children,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: any form's metadata: only its id and messages are read.
  form: FormMetadata<any, string[]>;
  result: SubmissionResult<string[]> | undefined;
  className: string;
  children: ReactNode;
}) {
  const formRef = useFailedSubmission(result);
  return (
    <Form
      ref={formRef}
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className={className}
    >
      <FormMessage id={form.errorId} errors={form.errors} />
      {children}
    </Form>
  );
}
