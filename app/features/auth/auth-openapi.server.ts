import type { ApiPart } from "~/utils/openapi";
import { errorResponse, jsonResponse, jsonSchemaOf } from "~/utils/openapi.server";
import {
  passwordCheckAnswerSchema,
  passwordCheckSchema,
  userRecordAnswerSchema,
  userRecordSchema,
} from "./auth-schema";
import { SESSION_COOKIE } from "./better-auth.server";

/** The accounts' public calls in the shop's OpenAPI description (/openapi.json). */
export const authApi: ApiPart = {
  securitySchemes: {
    session: {
      type: "apiKey",
      in: "cookie",
      name: SESSION_COOKIE,
      description:
        "The session cookie the shop sets when someone signs up or logs in (`__Secure-backline.session_token` when the shop is served over https).",
    },
  },
  paths: {
    "/api/password-check": {
      post: {
        operationId: "checkCommonPassword",
        tags: ["Accounts"],
        summary: "Is this password too common?",
        description:
          "Whether the shop refuses a new password as too common (one of ~49,000 most used passwords, or a usual disguise of one). The sign-up, reset and account pages ask when their new-password field is left. The password is neither kept nor logged. 60 checks per 10 minutes per client address.",
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(passwordCheckSchema, "input") } },
        },
        responses: {
          "200": jsonResponse("Whether the password is too common.", passwordCheckAnswerSchema),
          "400": errorResponse(
            "The body is not a JSON object, or `password` is not a string of 1–128 characters.",
          ),
          "429": errorResponse("Too many checks from this address: `Retry-After` says how long to wait."),
        },
      },
    },
    "/user/api/create": {
      put: {
        operationId: "saveOwnRecord",
        tags: ["Accounts"],
        summary: "Save the signed-in user's name and photo",
        description:
          "Updates the record of the user the session belongs to, and answers with it. The email must be that user's own; the name and photo follow the sign-up form's rules.",
        security: [{ session: [] }],
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(userRecordSchema, "input") } },
        },
        responses: {
          "200": jsonResponse("The record as saved.", userRecordAnswerSchema),
          "400": errorResponse(
            "The body is not a JSON object, or fields are not valid: `fields` names each, `field` the first.",
          ),
          "401": errorResponse("No one is signed in."),
          "403": errorResponse("The email is not the signed-in user's own."),
          "503": errorResponse("The record could not be saved just now; nothing was changed."),
        },
      },
    },
  },
};
