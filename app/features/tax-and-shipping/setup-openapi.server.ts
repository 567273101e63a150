import { taxShippingSetupSchema } from "~/commerce/tax-shipping-setup";
import type { ApiPart } from "~/utils/openapi";
import { errorResponse, jsonSchemaOf } from "~/utils/openapi.server";

/** The document as sent and as answered: amounts in the shop's currency, rates in percent. */
const documentSchema = () => jsonSchemaOf(taxShippingSetupSchema("USD"), "input");

const AS_DOCUMENT = () => ({
  description: "The setup as saved.",
  content: { "application/json": { schema: documentSchema() } },
});

const security = [{ session: [] }];

/** The tax and shipping setup's calls in the shop's OpenAPI description (/openapi.json). */
export const taxShippingApi = (): ApiPart => ({
  paths: {
    "/api/admin/tax-and-shipping": {
      get: {
        operationId: "readTaxAndShipping",
        tags: ["Back office"],
        summary: "The tax and shipping setup",
        description:
          "Where the shop charges which tax and what shipping costs, as one document: whether prices include tax, the tax zones (countries or ISO 3166-2 regions, each with a standard rate in percent and rates for tax classes), what to do outside every tax zone, and the shipping zones with their methods (a flat price, bands of subtotal or bands of weight, in the shop's currency). A shop that saved none answers one zone, Everywhere, at its shipping settings' prices, and no tax. For staff and owners; anyone else gets 404.",
        security,
        responses: {
          "200": AS_DOCUMENT(),
          "404": errorResponse("Not a staff or owner session."),
        },
      },
      put: {
        operationId: "replaceTaxAndShipping",
        tags: ["Back office"],
        summary: "Replace the tax and shipping setup",
        description:
          "Replaces the whole setup with the document sent (as GET answers it, so a setup kept in a file can be copied between shops); the change goes to the activity log. A country or region belongs to at most one zone of each kind; a region's zone comes before its country's. Amounts have at most the currency's decimals; rates at most 4 decimals. For staff and owners, with the back office's session and the shop's Origin; anyone else gets 404.",
        security,
        requestBody: {
          required: true,
          content: { "application/json": { schema: documentSchema() } },
        },
        responses: {
          "200": AS_DOCUMENT(),
          "400": errorResponse(
            "The body is not a JSON object, or values are not valid: `fields` names each by its JSON path (`taxZones[0].rate`), and nothing changed.",
          ),
          "404": errorResponse("Not a staff or owner session."),
        },
      },
    },
  },
});
