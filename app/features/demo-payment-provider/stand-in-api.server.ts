import type { RecordStore, SessionRecord } from "./stand-in-records.server";
import {
  type DemoLine,
  type DemoSession,
  newRefund,
  newSession,
  parseStripeForm,
  stripeError,
} from "./stripe-shapes.server";

/**
 * The stand-in's answers to the calls the official client makes for the
 * shop (docs/decisions/0040): create a Checkout session, read or expire one,
 * create a refund — in Stripe's documented shapes, honouring Stripe's
 * idempotency keys (the same key answers what it answered the first time;
 * one in flight is a 409 the client retries).
 */

export type Answer = { status: number; body: unknown };

export function createStandInApi(options: {
  store: RecordStore;
  /** The page a session is paid on. */
  pageUrl: (sessionId: string) => string;
  /** Sends the shop a webhook about a session (expired here). */
  deliver: (type: string, session: DemoSession) => void;
}) {
  const { store, deliver } = options;
  async function api(method: string, path: string, body: string, key: string | undefined): Promise<Answer> {
    const create = method === "POST" && path === "checkout/sessions";
    const refund = method === "POST" && path === "refunds";
    const sessionPath = /^checkout\/sessions\/(cs_[\w]+)(\/expire)?$/.exec(path);
    if (!create && !refund && !sessionPath)
      return stripeError(404, `Unrecognized request URL (${method}: /v1/${path}).`);
    if ((create || refund) && key) {
      // Stripe's idempotency: the same key answers what it answered the first time.
      const claimed = await store.claim(`idempotency:${key}`);
      if (!claimed) {
        const earlier = await store.read<Answer | { pending: true }>(`idempotency:${key}`);
        if (earlier && "status" in earlier) return earlier;
        return stripeError(409, "There is currently another in-progress request using this Idempotent Key.", {
          type: "idempotency_error",
        });
      }
      let answer: Answer;
      try {
        answer = create ? await createSession(body) : await createRefund(body);
      } catch (error) {
        // Not answered: the key is free again, as Stripe frees one whose request failed on its side.
        await store.remove(`idempotency:${key}`);
        throw error;
      }
      await store.write(`idempotency:${key}`, answer);
      return answer;
    }
    if (create) return createSession(body);
    if (refund) return createRefund(body);
    const id = sessionPath?.[1] as string;
    const record = await store.read<SessionRecord>(`session:${id}`);
    if (!record) return stripeError(404, `No such checkout.session: '${id}'`, { code: "resource_missing" });
    if (method === "GET" && !sessionPath?.[2]) return { status: 200, body: record.session };
    if (method !== "POST" || !sessionPath?.[2]) return stripeError(404, `Unrecognized request URL.`);
    const notOpen = () =>
      stripeError(400, 'Only Checkout Sessions with a status in ["open"] can be expired.');
    if (record.session.status !== "open") return notOpen();
    const expired: DemoSession = { ...record.session, status: "expired", url: null };
    // Only if still open: a Pay at the same moment wins or loses whole, never both.
    if (!(await store.replaceIfOpen(`session:${id}`, { ...record, session: expired }))) return notOpen();
    deliver("checkout.session.expired", expired);
    return { status: 200, body: expired };
  }

  async function createSession(body: string): Promise<Answer> {
    const form = parseStripeForm(body) as Record<string, unknown>;
    const items = Array.isArray(form.line_items) ? (form.line_items as Record<string, unknown>[]) : [];
    const lines: DemoLine[] = [];
    let currency = "";
    for (const item of items) {
      const price = (item.price_data ?? {}) as Record<string, unknown>;
      const product = (price.product_data ?? {}) as Record<string, unknown>;
      const unitAmount = Number(price.unit_amount);
      const quantity = Number(item.quantity ?? 1);
      if (
        !Number.isSafeInteger(unitAmount) ||
        unitAmount < 0 ||
        !Number.isSafeInteger(quantity) ||
        quantity < 1
      ) {
        return stripeError(400, "Invalid line_items: unit_amount and quantity must be whole numbers.", {
          param: "line_items",
        });
      }
      currency = String(price.currency ?? "");
      lines.push({ name: String(product.name ?? "Item"), unitAmount, quantity });
    }
    if (lines.length === 0)
      return stripeError(400, "Missing required param: line_items.", { param: "line_items" });
    if (typeof form.success_url !== "string") {
      return stripeError(400, "Missing required param: success_url.", { param: "success_url" });
    }
    const session = newSession({
      lines,
      currency,
      clientReferenceId: typeof form.client_reference_id === "string" ? form.client_reference_id : null,
      customerEmail: typeof form.customer_email === "string" ? form.customer_email : null,
      metadata: (form.metadata ?? {}) as Record<string, string>,
      successUrl: form.success_url,
      cancelUrl: typeof form.cancel_url === "string" ? form.cancel_url : null,
      pageUrl: options.pageUrl,
    });
    await store.write(`session:${session.id}`, { session, lines, refunded: false } satisfies SessionRecord);
    return { status: 200, body: session };
  }

  async function createRefund(body: string): Promise<Answer> {
    const intent = (parseStripeForm(body) as Record<string, unknown>).payment_intent;
    if (typeof intent !== "string") {
      return stripeError(400, "Missing required param: payment_intent.", { param: "payment_intent" });
    }
    const sessionId = await store.read<string>(`payment:${intent}`);
    const record = sessionId ? await store.read<SessionRecord>(`session:${sessionId}`) : null;
    if (!record || !sessionId) {
      return stripeError(404, `No such payment_intent: '${intent}'`, { code: "resource_missing" });
    }
    if (record.refunded) {
      return stripeError(400, `Charge for ${intent} has already been refunded.`, {
        code: "charge_already_refunded",
      });
    }
    await store.write(`session:${sessionId}`, { ...record, refunded: true });
    return { status: 200, body: newRefund(intent, record.session.amount_total, record.session.currency) };
  }

  return api;
}
