import { afterEach, describe, expect, it, vi } from "vitest";
import { ERRORS } from "../../shared/contract/accounts.ts";
import { ERROR_CODES } from "../../shared/contract/common.ts";
import { type ApiClient, ApiError, createApiClient, MalformedAnswerError } from "./api-client.ts";

const SIGNED_IN = {
  user: { id: "u1", email: "ada@example.com", name: "Ada", role: "owner" },
  org: { org_id: "o1", name: "Analytical Engines" },
};

function json(body: unknown, status = 200, statusText = ""): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { "content-type": "application/json" },
  });
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("did not fail");
}

afterEach(() => vi.unstubAllGlobals());

describe("createApiClient", () => {
  it("says the session ended when an /api call answers 401, and only then, still failing the call", async () => {
    const answers: Record<string, Response> = {
      "/api/projects?integrationType=git&integrationName=github": json({ error: ERRORS.noAuthToken }, 401),
      "/api/integrations": json({ error: "Forbidden" }, 403),
      "/auth/login": json({ error: ERRORS.notAuthorized }, 401),
    };
    const fetchMock = vi.fn<typeof fetch>(async (url) => answers[String(url)] ?? json({}, 500));
    const onSessionEnded = vi.fn();
    const api = createApiClient({ baseUrl: "", fetch: fetchMock, onSessionEnded });
    expect(await failureOf(api.getIntegrations())).toBeInstanceOf(ApiError);
    expect(await failureOf(api.login({ email: "a@b.co", firebase_uid: "f", idToken: "i" }))).toBeInstanceOf(
      ApiError,
    );
    expect(onSessionEnded).not.toHaveBeenCalled();
    expect(await failureOf(api.getProjects())).toMatchObject({ status: 401 });
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
  });

  it("posts the sign-in as JSON to the same origin and answers its body", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => json(SIGNED_IN));
    const api = createApiClient({ baseUrl: "", fetch: fetchMock });
    const body = { email: "ada@example.com", firebase_uid: "fb", idToken: "id" };
    await expect(api.login(body)).resolves.toEqual(SIGNED_IN);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("/auth/login");
    expect(init?.method).toBe("POST");
    expect(init?.credentials).toBe("same-origin");
    expect(new Headers(init?.headers).get("content-type")).toBe("application/json");
    expect(JSON.parse(String(init?.body))).toEqual(body);
  });

  it("refuses a successful answer that is not a JSON object (a proxy's error page)", async () => {
    for (const answer of [new Response("<html>", { status: 200 }), json("signed in"), json(null)]) {
      const api = createApiClient({ baseUrl: "", fetch: async () => answer });
      const error = await failureOf(api.login({ email: "a@b.co", firebase_uid: "fb", idToken: "id" }));
      expect(error).toBeInstanceOf(MalformedAnswerError);
    }
  });

  it("turns an error answer into an ApiError with its status, code, message and body", async () => {
    const body = { error: "Forbidden", code: ERROR_CODES.emailNotVerified, message: "Verify first" };
    const api = createApiClient({ baseUrl: "", fetch: async () => json(body, 403) });
    const error = await failureOf(api.logout());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 403,
      code: ERROR_CODES.emailNotVerified,
      message: "Verify first",
      body,
    });
  });

  it("keeps no body when an error answer's fields are not text", async () => {
    for (const body of [{ error: 5 }, { error: "Forbidden", code: 7 }, { message: "no error field" }]) {
      const api = createApiClient({ baseUrl: "", fetch: async () => json(body, 403) });
      expect(await failureOf(api.logout())).toMatchObject({ status: 403, body: undefined });
    }
  });

  it("keeps no body when the error answer is not JSON", async () => {
    const api = createApiClient({
      baseUrl: "",
      fetch: async () => new Response("<html>", { status: 500, statusText: "Internal Server Error" }),
    });
    const error = await failureOf(api.resendVerification("ada@example.com"));
    expect(error).toMatchObject({
      status: 500,
      body: undefined,
      code: undefined,
      message: "Internal Server Error",
    });
  });

  it("answers 503 when nothing answers, and lets an abort through", async () => {
    const down = createApiClient({
      baseUrl: "",
      fetch: async () => Promise.reject(new TypeError("fetch failed")),
    });
    expect(await failureOf(down.logout())).toMatchObject({
      status: 503,
      message: ERRORS.backendUnavailable,
      unreachable: true,
    });

    const controller = new AbortController();
    controller.abort();
    const aborted = createApiClient({
      baseUrl: "",
      signal: controller.signal,
      fetch: async () => Promise.reject(new DOMException("aborted", "AbortError")),
    });
    expect(await failureOf(aborted.logout())).toMatchObject({ name: "AbortError" });
  });

  it("gives up on calls not answered by the deadline as on an unavailable backend", async () => {
    /** A fetch that never answers, and ends when its signal does, as fetch does. */
    const silent: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        if (init?.signal?.aborted) reject(init.signal.reason);
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    const page = new AbortController();
    const client = createApiClient({ baseUrl: "", signal: page.signal, deadlineMs: 20, fetch: silent });
    const unavailable = { status: 503, message: ERRORS.backendUnavailable, unreachable: true };
    expect(await failureOf(client.logout())).toMatchObject(unavailable);
    // The deadline is the client's, from its first call: a later call has no more time.
    expect(await failureOf(client.logout())).toMatchObject(unavailable);

    // The page request going away is still its own reason, not the backend's.
    const leaving = createApiClient({ baseUrl: "", signal: page.signal, deadlineMs: 60_000, fetch: silent });
    const call = leaving.logout();
    page.abort(new DOMException("the browser left", "AbortError"));
    expect(await failureOf(call)).toMatchObject({ name: "AbortError" });
  });

  it("tells a 503 answer from no answer", async () => {
    const api = createApiClient({ baseUrl: "", fetch: async () => json({ error: "Unavailable" }, 503) });
    expect(await failureOf(api.logout())).toMatchObject({ status: 503, unreachable: false });
  });

  it.each([
    [
      "signup",
      (api: ApiClient) =>
        api.signup({
          name: "Ada",
          email: "ada@example.com",
          company: "Engines",
          source: "search",
          type: "EMAIL",
          idToken: "id",
        }),
      "/auth/signup",
      { requiresEmailVerification: true, message: "Check your email" },
    ],
    [
      "providerLogin",
      (api: ApiClient) => api.providerLogin("git hub", "c0de"),
      "/auth/login/git%20hub",
      SIGNED_IN,
    ],
    [
      "forgotPassword",
      (api: ApiClient) => api.forgotPassword("ada@example.com"),
      "/auth/forgot-password",
      { message: "If an account exists, we sent a link." },
    ],
    [
      "resetPassword",
      (api: ApiClient) => api.resetPassword("oob", "N3w-Secret!"),
      "/auth/reset-password",
      { success: true },
    ],
  ])("%s posts to its path and answers the contract's shape", async (_, call, path, answer) => {
    const fetchMock = vi.fn<typeof fetch>(async () => json(answer));
    await expect(call(createApiClient({ baseUrl: "", fetch: fetchMock }))).resolves.toEqual(answer);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(path);
    expect(init?.method).toBe("POST");
  });

  it("reads the outbox", async () => {
    const outbox = {
      messages: [
        {
          id: "m1",
          to: "a@b.co",
          subject: "Verify",
          text: "Open",
          links: ["http://x/y"],
          sentAt: "2026-01-01",
        },
      ],
    };
    await expect(createApiClient({ baseUrl: "", fetch: async () => json(outbox) }).outbox()).resolves.toEqual(
      outbox,
    );
  });

  it("uses the global fetch of the moment of the call", async () => {
    const api = createApiClient({ baseUrl: "http://backend.test", token: "t", requestId: "r" });
    const fetchMock = vi.fn<typeof fetch>(async () => new Response(null, { status: 204 }));
    vi.stubGlobal("fetch", fetchMock);
    await api.logout();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("http://backend.test/auth/logout");
    expect(new Headers(init?.headers).get("authorization")).toBe("Bearer t");
    expect(new Headers(init?.headers).get("x-request-id")).toBe("r");
  });
});
