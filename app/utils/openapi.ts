/**
 * The shape of the shop's OpenAPI 3.1 description (/openapi.json), as much of
 * it as the shop writes and its reference page (/docs/api) reads. The
 * schemas are JSON Schema 2020-12, made from the zod schemas the API parses
 * and answers with (openapi.server.ts).
 */
export type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  [keyword: string]: unknown;
};

export interface ApiParameter {
  name: string;
  in: "query" | "path" | "header";
  required: boolean;
  description: string;
  schema: JsonSchema;
  style?: "form";
  explode?: boolean;
}

export interface ApiResponse {
  description: string;
  content?: { "application/json": { schema: JsonSchema } };
}

export interface ApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: ApiParameter[];
  requestBody?: { required: boolean; content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, ApiResponse>;
  security?: Record<string, string[]>[];
}

type ApiMethod = "get" | "put" | "post" | "patch" | "delete";

type ApiPaths = Record<string, Partial<Record<ApiMethod, ApiOperation>>>;

interface ApiSecurityScheme {
  type: "apiKey";
  in: "cookie";
  name: string;
  description: string;
}

/** What one feature documents: its calls, and how a caller signs in for them. */
export interface ApiPart {
  paths: ApiPaths;
  securitySchemes?: Record<string, ApiSecurityScheme>;
}

export interface ApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  paths: ApiPaths;
  components: { securitySchemes: Record<string, ApiSecurityScheme> };
}
