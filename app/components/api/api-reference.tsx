import type { ApiDocument, ApiOperation, JsonSchema } from "~/utils/openapi";

/**
 * A readable reference of the JSON API, drawn from its OpenAPI description
 * (the same document /openapi.json serves): every call with its parameters,
 * its body and its answers, each field with its type, limits and meaning.
 * Lists rather than tables, so it reflows on a phone.
 */
export function ApiReference({ document }: { document: ApiDocument }) {
  const calls = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );
  return (
    <>
      <p className="mt-4 text-lg leading-8 text-slate-700">
        <Prose text={document.info.description} />
      </p>
      <p className="mt-3 text-slate-700">
        The same description for programs:{" "}
        <a className="font-semibold text-indigo-700 underline" href="/openapi.json">
          /openapi.json
        </a>{" "}
        (OpenAPI {document.openapi}).
      </p>
      <nav aria-labelledby="api-calls" className="mt-8">
        <h2 id="api-calls" className="text-xl font-bold text-slate-900">
          Calls
        </h2>
        <ul className="mt-3 space-y-2">
          {calls.map(({ path, method, operation }) => (
            <li key={operation.operationId}>
              <a className="text-indigo-700 underline" href={`#${operation.operationId}`}>
                <code className="font-semibold">
                  {method} {path}
                </code>
              </a>{" "}
              — {operation.summary}
            </li>
          ))}
        </ul>
      </nav>
      {calls.map(({ path, method, operation }) => (
        <Call
          key={operation.operationId}
          path={path}
          method={method}
          operation={operation}
          document={document}
        />
      ))}
    </>
  );
}

function Call({
  path,
  method,
  operation,
  document,
}: {
  path: string;
  method: string;
  operation: ApiOperation;
  document: ApiDocument;
}) {
  const id = operation.operationId;
  const body = operation.requestBody?.content["application/json"].schema;
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  return (
    <section aria-labelledby={id} className="mt-12 border-t border-slate-300 pt-8">
      <h2 id={id} className="text-2xl font-bold break-words text-slate-900">
        <code>
          {method} {path}
        </code>
      </h2>
      <p className="mt-1 font-semibold text-slate-800">{operation.summary}</p>
      <p className="mt-3 leading-7 text-slate-700">
        <Prose text={operation.description} />
      </p>
      {schemes.map((scheme) => (
        <p key={scheme} className="mt-3 leading-7 text-slate-700">
          <strong>Signed in only:</strong>{" "}
          <Prose text={document.components.securitySchemes[scheme]?.description ?? ""} />
        </p>
      ))}
      {operation.parameters && operation.parameters.length > 0 ? (
        <>
          <h3 className="mt-6 text-lg font-bold text-slate-900">Query parameters (all optional)</h3>
          <dl className="mt-2 divide-y divide-slate-200">
            {operation.parameters.map((parameter) => (
              <Field
                key={parameter.name}
                name={parameter.name}
                schema={parameter.schema}
                description={parameter.description}
                repeats={parameter.explode === true}
              />
            ))}
          </dl>
        </>
      ) : null}
      {body ? (
        <>
          <h3 className="mt-6 text-lg font-bold text-slate-900">Body (JSON)</h3>
          <Fields schema={body} />
        </>
      ) : null}
      <h3 className="mt-6 text-lg font-bold text-slate-900">Answers</h3>
      <dl className="mt-2 space-y-4">
        {Object.entries(operation.responses).map(([status, response]) => {
          const schema = response.content?.["application/json"].schema;
          return (
            <div key={status}>
              <dt className="font-semibold text-slate-900">
                <code>{status}</code> <Prose text={response.description} />
              </dt>
              {schema ? (
                <dd className="mt-1 ml-4">
                  {schema.type === "array" && schema.items ? (
                    <>
                      <p className="text-slate-700">A list, each:</p>
                      <Fields schema={schema.items} />
                    </>
                  ) : (
                    <Fields schema={schema} />
                  )}
                </dd>
              ) : null}
            </div>
          );
        })}
      </dl>
    </section>
  );
}

/** An object's fields, nested ones named with a dot (`error.code`), a list's items with `[]` (`brands[].label`). */
function Fields({ schema }: { schema: JsonSchema }) {
  return <dl className="mt-2 divide-y divide-slate-200">{fieldsOf(schema, "")}</dl>;
}

function fieldsOf(schema: JsonSchema, prefix: string): React.JSX.Element[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => {
    const fullName = `${prefix}${name}`;
    const optional = !(schema.required ?? []).includes(name);
    if (field.type === "object" && field.properties) return fieldsOf(field, `${fullName}.`);
    const items =
      field.type === "array" && field.items?.properties ? fieldsOf(field.items, `${fullName}[].`) : [];
    return [
      <Field
        key={fullName}
        name={fullName}
        schema={field}
        description={field.description ?? ""}
        optional={optional}
      />,
      ...items,
    ];
  });
}

function Field({
  name,
  schema,
  description,
  optional = false,
  repeats = false,
}: {
  name: string;
  schema: JsonSchema;
  description: string;
  optional?: boolean;
  repeats?: boolean;
}) {
  return (
    <div className="py-2">
      <dt>
        <code className="font-semibold text-slate-900">{name}</code>{" "}
        <span className="text-slate-700">
          {typeOf(schema)}
          {optional ? ", optional" : ""}
          {repeats ? ", may repeat" : ""}
        </span>
      </dt>
      {description ? (
        <dd className="mt-1 leading-7 text-slate-700">
          <Prose text={description} />
        </dd>
      ) : null}
    </div>
  );
}

/** A description's text, its `code` spans (CommonMark's backticks, as OpenAPI descriptions use) set as code. */
function Prose({ text }: { text: string }) {
  return text.split("`").map((part, index) =>
    // Odd parts were between backticks.
    index % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
      <code key={index} className="rounded bg-slate-100 px-1 text-slate-900">
        {part}
      </code>
    ) : (
      part
    ),
  );
}

const characters = (count: number) => `${count} character${count === 1 ? "" : "s"}`;

/** A schema's type in words, with its limits: "string, at most 200 characters". */
function typeOf(schema: JsonSchema): string {
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" or ");
  if (schema.enum) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(", ")}`;
  if (schema.type === "array") {
    const limit = schema.maxItems === undefined ? "" : ` (at most ${schema.maxItems})`;
    return `list of ${schema.items ? typeOf(schema.items) : "values"}${limit}`;
  }
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : (schema.type ?? "any value");
  const limits = [
    schema.format === "date-time" ? "a date and time (ISO 8601)" : schema.format,
    schema.minimum === undefined ? undefined : `at least ${schema.minimum}`,
    schema.exclusiveMinimum === undefined ? undefined : `more than ${schema.exclusiveMinimum}`,
    schema.maximum === undefined ? undefined : `at most ${schema.maximum}`,
    schema.minLength === undefined ? undefined : `at least ${characters(schema.minLength)}`,
    schema.maxLength === undefined ? undefined : `at most ${characters(schema.maxLength)}`,
    schema.type === "string" && schema.pattern === "^\\d+$" ? "digits only" : undefined,
  ].filter(Boolean);
  return limits.length > 0 ? `${type}, ${limits.join(", ")}` : type;
}
