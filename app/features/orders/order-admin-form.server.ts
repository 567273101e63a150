import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Actor } from "~/utils/audit-log.server";
import { readForm } from "~/utils/form-submission.server";
import { refundCardPayment } from "./card-payments/card-refund.server";
import { changeOrderStatus } from "./order-admin.server";
import { orderActionSchema } from "./order-admin-schema";
import { orderParamsSchema } from "./order-schema";
import type { OrderServices } from "./orders.server";

/**
 * The order page's action forms, sent (/admin/orders/BL-7Q4K9, POST): read
 * with the forms' own schema, done by changeOrderStatus (a refund by
 * refundCardPayment), answered as a page
 * is — the order's page again on success (post/redirect/get, `?changed=`
 * saying what was done), the page with the form's message otherwise: 400
 * naming the field that does not read, 409 with why the change no longer
 * fits (and the page, reloaded by the router, showing the order as it is).
 */
const NO_STORE = { "Cache-Control": "no-store" };

export async function orderActionFormAction(
  request: Request,
  params: Record<string, string | undefined>,
  services: OrderServices,
  actor: Actor,
  /** Whether this person may send money back (owners: the route decides from the role). */
  { mayRefund }: { mayRefund: boolean },
) {
  const address = orderParamsSchema.safeParse(params);
  if (!address.success) throw data(null, { status: 404 });
  const submission = parseWithZod(await readForm(request), { schema: orderActionSchema });
  const intent = submission.payload.intent;
  if (submission.status !== "success") {
    return data({ intent, result: submission.reply() }, { status: 400, headers: NO_STORE });
  }
  if (submission.value.intent === "refund") {
    if (!mayRefund) {
      throw data("Only an owner of the shop can refund a payment. Ask an owner.", { status: 403 });
    }
    const refund = await refundCardPayment(services, actor, {
      number: address.data.number,
      paymentId: submission.value.paymentId,
    });
    if (refund.outcome === "not-found") throw data(null, { status: 404 });
    if (refund.outcome === "refused") {
      return data(
        { intent, result: submission.reply({ formErrors: [refund.message], resetForm: false }) },
        { status: 409, headers: NO_STORE },
      );
    }
    throw redirect(`/admin/orders/${address.data.number}?changed=refunded`, { status: 303 });
  }
  const { intent: action, shownStatus, ...rest } = submission.value;
  const change = await changeOrderStatus(services, actor, {
    number: address.data.number,
    action,
    shownStatus,
    trackingNumber: "trackingNumber" in rest ? rest.trackingNumber : undefined,
  });
  switch (change.outcome) {
    case "not-found":
      throw data(null, { status: 404 });
    case "refused":
      return data(
        { intent, result: submission.reply({ formErrors: [change.message], resetForm: false }) },
        { status: 409, headers: NO_STORE },
      );
    case "changed":
      throw redirect(`/admin/orders/${address.data.number}?changed=${change.status}`, { status: 303 });
  }
}
