import { apiErrorSchema } from "~/utils/http.server";
import type { ApiDocument, ApiParameter, ApiPart, ApiResponse, JsonSchema } from "~/utils/openapi";
import { z } from "~/utils/zod";

/**
 * Helpers the features describe their calls with, from the very zod schemas
 * that parse the calls and shape their answers, so the description cannot
 * drift from what the shop does (tests/integration/openapi.test.ts checks
 * real answers against it).
 */

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): what a caller sends ("input") or gets ("output"). */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "output"): JsonSchema {
  // A transform has no JSON form; on the "input" side a pipe is described by what it accepts.
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return json;
}

/**
 * Each field of a query's schema as an optional query parameter (a list
 * repeats: `band=a&band=b`), described by its entry in `descriptions` (which
 * may describe more parameters than these fields).
 */
export function queryParameters<K extends string>(
  fields: Record<K, z.ZodType>,
  descriptions: Record<NoInfer<K>, string>,
): ApiParameter[] {
  return (Object.keys(fields) as K[]).map((name) => {
    const schema = jsonSchemaOf(fields[name], "input");
    return {
      name,
      in: "query",
      required: false,
      description: descriptions[name],
      schema,
      ...(schema.type === "array" ? { style: "form", explode: true } : {}),
    };
  });
}

export function jsonResponse(description: string, schema: z.ZodType): ApiResponse {
  return { description, content: { "application/json": { schema: jsonSchemaOf(schema) } } };
}

/** An error answer: `{ "error": { code, message, field? } }`. */
export function errorResponse(description: string): ApiResponse {
  return jsonResponse(description, apiErrorSchema);
}

/** The whole description, from each feature's part. */
export function apiDocument(info: ApiDocument["info"], parts: ApiPart[]): ApiDocument {
  return {
    openapi: "3.1.0",
    info,
    paths: Object.assign({}, ...parts.map((part) => part.paths)),
    components: { securitySchemes: Object.assign({}, ...parts.map((part) => part.securitySchemes ?? {})) },
  };
}
