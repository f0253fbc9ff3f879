/**
 * A local stand-in for the Stripe API calls Argus's adapter makes (backend/billing/stripe.ts), on a
 * loopback port, answering Stripe's object shapes: POST /v1/checkout/sessions and
 * GET /v1/checkout/sessions/{id} (with `expand[]=subscription`), GET and POST /v1/subscriptions/{id}
 * (items with their `current_period_end`, `cancel_at_period_end`, `cancel_at`),
 * POST /v1/billing_portal/sessions (with `flow_data`), POST /v1/customers and
 * GET /v1/customers/{id} (with `balance`). Requests are form-encoded with bracketed keys, as the SDK
 * sends them; a wrong key is 401 and an unknown object 404, in Stripe's error shape
 * `{error: {type, code, message, param}}`. Point STRIPE_API_URL at `url`.
 *
 * The test plays the customer with `payCheckout`, `expireCheckout`, `completePortalFlow` and
 * `setBalance`, which change the objects as Stripe would after its hosted pages.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Params = { [key: string]: string | Params };

/** `a[b][0][c]=v` pairs into nested objects; indexed arrays stay objects keyed "0", "1"... */
function parseForm(body: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/[[\]]+/).filter(Boolean);
    let node = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value;
      else {
        const next = node[part];
        node[part] = typeof next === "object" ? next : {};
        node = node[part] as Params;
      }
    });
  }
  return root;
}

const text = (params: Params | string | undefined, key: string): string | undefined => {
  const value = typeof params === "object" ? params[key] : undefined;
  return typeof value === "string" ? value : undefined;
};
const child = (params: Params | string | undefined, key: string): Params => {
  const value = typeof params === "object" ? params[key] : undefined;
  return typeof value === "object" ? value : {};
};

const now = () => Math.floor(Date.now() / 1000);
const MONTH_SECONDS = 30 * 24 * 60 * 60;
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

export interface FakeStripeSubscription {
  id: string;
  object: "subscription";
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  created: number;
  currency: string;
  livemode: false;
  metadata: Record<string, string>;
  items: {
    object: "list";
    data: Array<{
      id: string;
      object: "subscription_item";
      quantity: number;
      price: { id: string; object: "price"; unit_amount: number; currency: string };
      current_period_start: number;
      current_period_end: number;
      subscription: string;
    }>;
    has_more: false;
    url: string;
  };
}

export interface FakeStripeCheckoutSession {
  id: string;
  object: "checkout.session";
  mode: "subscription";
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  url: string | null;
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  subscription: string | null;
  amount_total: number;
  currency: string;
  created: number;
  livemode: false;
  /** Not part of Stripe's answer: what the session sells. */
  line: { price: string; quantity: number };
}

export interface FakeStripePortalSession {
  id: string;
  object: "billing_portal.session";
  customer: string;
  return_url: string | null;
  url: string;
  created: number;
  livemode: false;
  flow: { type: string; after_completion: Params; subscription_update_confirm: Params } | null;
}

export interface FakeStripe {
  url: string;
  secretKey: string;
  priceId: string;
  unitAmount: number;
  checkoutSessions: Map<string, FakeStripeCheckoutSession>;
  subscriptions: Map<string, FakeStripeSubscription>;
  portalSessions: FakeStripePortalSession[];
  /** The customer pays: the session completes and a subscription with its quantity starts. */
  payCheckout(sessionId: string): FakeStripeSubscription;
  expireCheckout(sessionId: string): void;
  /** The customer confirms a portal flow: a seat update takes effect on the subscription. */
  completePortalFlow(portalSessionId: string): void;
  /** Stripe's customer balance: negative is credit. */
  setBalance(customerId: string, balance: number): void;
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = `sk_test_${randomBytes(16).toString("hex")}`;
  const priceId = newId("price");
  const unitAmount = 1500;
  const checkoutSessions = new Map<string, FakeStripeCheckoutSession>();
  const subscriptions = new Map<string, FakeStripeSubscription>();
  const customers = new Map<
    string,
    { id: string; object: "customer"; email: string | null; balance: number }
  >();
  const portalSessions: FakeStripePortalSession[] = [];

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
    res.end(JSON.stringify(body));
  }
  function stripeError(
    res: ServerResponse,
    status: number,
    message: string,
    extra: Record<string, string> = {},
  ) {
    send(res, status, { error: { type: "invalid_request_error", message, ...extra } });
  }
  const missing = (res: ServerResponse, kind: string, id: string) =>
    stripeError(res, 404, `No such ${kind}: '${id}'`, { code: "resource_missing", param: "id" });

  function customerFor(email: string | null): string {
    const id = newId("cus");
    customers.set(id, { id, object: "customer", email, balance: 0 });
    return id;
  }

  function checkoutAnswer(session: FakeStripeCheckoutSession, expand: string[]) {
    const { line: _line, ...answer } = session;
    if (expand.includes("subscription") && session.subscription) {
      return { ...answer, subscription: subscriptions.get(session.subscription) };
    }
    return answer;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      stripeError(res, 401, "Invalid API Key provided");
      return;
    }
    let body = "";
    for await (const chunk of req) body += chunk;
    const address = new URL(req.url ?? "/", "http://stripe.invalid");
    const params = parseForm(req.method === "GET" ? address.search.slice(1) : body);
    const expand = Object.values(child(params, "expand")).filter((v): v is string => typeof v === "string");
    const path = address.pathname;
    const checkoutId = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)?.[1];
    const subscriptionId = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)?.[1];
    const customerId = /^\/v1\/customers\/([^/]+)$/.exec(path)?.[1];

    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      const line = child(child(params, "line_items"), "0");
      const price = text(line, "price");
      const quantity = Number(text(line, "quantity") ?? "1");
      if (price !== priceId) {
        stripeError(res, 400, `No such price: '${price}'`, {
          code: "resource_missing",
          param: "line_items[0][price]",
        });
        return;
      }
      const id = newId("cs_test");
      const session: FakeStripeCheckoutSession = {
        id,
        object: "checkout.session",
        mode: "subscription",
        status: "open",
        payment_status: "unpaid",
        url: `https://checkout.stripe.com/c/pay/${id}`,
        customer: text(params, "customer") ?? null,
        customer_email: text(params, "customer_email") ?? null,
        client_reference_id: text(params, "client_reference_id") ?? null,
        metadata: child(params, "metadata") as Record<string, string>,
        success_url: text(params, "success_url") ?? "",
        cancel_url: text(params, "cancel_url") ?? "",
        subscription: null,
        amount_total: unitAmount * quantity,
        currency: "usd",
        created: now(),
        livemode: false,
        line: { price, quantity },
      };
      checkoutSessions.set(id, session);
      send(res, 200, checkoutAnswer(session, expand));
      return;
    }
    if (req.method === "GET" && checkoutId) {
      const session = checkoutSessions.get(checkoutId);
      if (!session) return missing(res, "checkout.session", checkoutId);
      send(res, 200, checkoutAnswer(session, expand));
      return;
    }
    if (subscriptionId) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) return missing(res, "subscription", subscriptionId);
      if (req.method === "POST") {
        const atPeriodEnd = text(params, "cancel_at_period_end");
        if (atPeriodEnd !== undefined) {
          subscription.cancel_at_period_end = atPeriodEnd === "true";
          // As Stripe does since 2025: cancel_at mirrors a cancellation at period end.
          subscription.cancel_at = subscription.cancel_at_period_end
            ? (subscription.items.data[0]?.current_period_end ?? null)
            : null;
          subscription.canceled_at = subscription.cancel_at_period_end ? now() : null;
        }
      }
      send(res, 200, subscription);
      return;
    }
    if (req.method === "POST" && path === "/v1/customers") {
      const id = customerFor(text(params, "email") ?? null);
      send(res, 200, customers.get(id));
      return;
    }
    if (req.method === "GET" && customerId) {
      const customer = customers.get(customerId);
      if (!customer) return missing(res, "customer", customerId);
      send(res, 200, customer);
      return;
    }
    if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
      const customer = text(params, "customer") ?? "";
      if (!customers.has(customer)) {
        stripeError(res, 400, `No such customer: '${customer}'`, {
          code: "resource_missing",
          param: "customer",
        });
        return;
      }
      const flowData = child(params, "flow_data");
      const id = newId("bps");
      const session: FakeStripePortalSession = {
        id,
        object: "billing_portal.session",
        customer,
        return_url: text(params, "return_url") ?? null,
        url: `https://billing.stripe.com/p/session/test_${id}`,
        created: now(),
        livemode: false,
        flow: text(flowData, "type")
          ? {
              type: text(flowData, "type") as string,
              after_completion: child(flowData, "after_completion"),
              subscription_update_confirm: child(flowData, "subscription_update_confirm"),
            }
          : null,
      };
      portalSessions.push(session);
      send(res, 200, session);
      return;
    }
    stripeError(res, 404, `Unrecognized request URL (${req.method}: ${path}).`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { error: { type: "api_error", message: "fake failure" } }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    priceId,
    unitAmount,
    checkoutSessions,
    subscriptions,
    portalSessions,
    payCheckout(sessionId) {
      const session = checkoutSessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      const customer = session.customer ?? customerFor(session.customer_email);
      const id = newId("sub");
      const start = now();
      const subscription: FakeStripeSubscription = {
        id,
        object: "subscription",
        customer,
        status: "active",
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        created: start,
        currency: "usd",
        livemode: false,
        metadata: session.metadata,
        items: {
          object: "list",
          data: [
            {
              id: newId("si"),
              object: "subscription_item",
              quantity: session.line.quantity,
              price: { id: session.line.price, object: "price", unit_amount: unitAmount, currency: "usd" },
              current_period_start: start,
              current_period_end: start + MONTH_SECONDS,
              subscription: id,
            },
          ],
          has_more: false,
          url: `/v1/subscription_items?subscription=${id}`,
        },
      };
      subscriptions.set(id, subscription);
      Object.assign(session, {
        status: "complete",
        payment_status: "paid",
        customer,
        subscription: id,
        url: null,
      });
      return subscription;
    },
    expireCheckout(sessionId) {
      const session = checkoutSessions.get(sessionId);
      if (session) Object.assign(session, { status: "expired", url: null });
    },
    completePortalFlow(portalSessionId) {
      const flow = portalSessions.find((session) => session.id === portalSessionId)?.flow;
      const confirm = flow?.subscription_update_confirm;
      const subscription = subscriptions.get(text(confirm, "subscription") ?? "");
      const change = child(child(confirm, "items"), "0");
      const item = subscription?.items.data.find((candidate) => candidate.id === text(change, "id"));
      if (!item) throw new Error(`portal session ${portalSessionId} has no subscription update`);
      item.quantity = Number(text(change, "quantity"));
    },
    setBalance(customerId, balance) {
      const customer = customers.get(customerId);
      if (!customer) throw new Error(`no customer ${customerId}`);
      customer.balance = balance;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
