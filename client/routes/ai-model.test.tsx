import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AiModel, AiModelResponse } from "../../shared/contract/ai-model.ts";
import { AI_MODEL, MODEL_FAILURE_LABELS } from "../../shared/contract/ai-model.ts";
import { confirmedAs, gateway, jsonResponse, USER } from "../../tests/support/client/fixtures";
import { renderPage } from "../../tests/support/client/render-page";
import AiModelRoute, { loader } from "./ai-model";

const fetchMock = vi.fn<typeof fetch>();
/** What GET /api/ai-model answers: the model, or a status with an error body. */
let stored: AiModelResponse["data"] | number;
/** What POST /api/ai-model/test answers. */
let testAnswer: () => Response;

const SAVED: AiModel = {
  configured: true,
  kind: "openai-compatible",
  baseUrl: "http://localhost:11434/v1",
  model: "qwen2.5-coder:14b",
  apiKeySet: true,
  inputTokenLimit: 32_000,
  monthlyBudgetCents: 2_550,
  updatedAt: "2026-11-23T06:00:00.000Z",
  thisMonth: {
    since: "2026-11-01T00:00:00.000Z",
    until: "2026-12-01T00:00:00.000Z",
    reviews: 12,
    unpricedReviews: 0,
    inputTokens: 123_456,
    outputTokens: 7_890,
    costMicros: 4_200_000,
  },
};

/** The page as the organisation's owner sees it, or as `role` does. */
const renderAiModel = (role = "owner") =>
  renderPage({ path: "settings/ai-model", loader, Component: AiModelRoute }, "/settings/ai-model", {
    value: gateway({
      session: {
        token: "secret-token",
        user: { ...USER, role },
        confirmation: confirmedAs({ ...USER, role }),
      },
    }),
  });
const callsTo = (path: string, method: string) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url) === path && init?.method === method);
/** Types `text` into the field of `label` at once (a paste: typing key by key is slow). */
async function fill(user: ReturnType<typeof userEvent.setup>, label: string, text: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}
const bodyOf = (call: Parameters<typeof fetch> | undefined) => JSON.parse(String(call?.[1]?.body));

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  stored = { configured: false };
  testAnswer = () => jsonResponse({ success: true, data: { ok: true, reply: "pong", latencyMs: 42 } });
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === "http://backend.test/api/ai-model") {
      return typeof stored === "number"
        ? jsonResponse({ error: "nope" }, stored)
        : jsonResponse({ success: true, data: stored });
    }
    if (url === "/api/ai-model" && init?.method === "PUT") {
      const { apiKey, ...body } = JSON.parse(String(init.body));
      stored = { ...SAVED, ...body, apiKeySet: apiKey !== null, updatedAt: new Date().toISOString() };
      return jsonResponse({ success: true, message: AI_MODEL.saved, data: stored });
    }
    if (url === "/api/ai-model" && init?.method === "DELETE") {
      stored = { configured: false };
      return jsonResponse({ success: true, message: AI_MODEL.removed, data: stored });
    }
    if (url === "/api/ai-model/test" && init?.method === "POST") return testAnswer();
    throw new Error(`unexpected fetch ${init?.method ?? "GET"} ${url}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe("/settings/ai-model", () => {
  it("says reviews use the built-in reviewer until a model is added, then checks the form with the shared messages", async () => {
    const user = userEvent.setup();
    renderAiModel();
    expect(await screen.findByText(AI_MODEL.empty)).toBeVisible();
    await user.click(screen.getByRole("button", { name: AI_MODEL.add }));
    const kind = screen.getByLabelText("Kind");
    expect(kind).toHaveFocus();
    await user.selectOptions(kind, "openai-compatible");
    expect(screen.getByLabelText("Base URL")).toHaveAttribute("placeholder", "http://localhost:11434/v1");
    await user.clear(screen.getByLabelText("Input-token limit"));
    await fill(user, "Input-token limit", "12.5");
    await fill(user, "Monthly budget (USD)", "-3");
    await user.click(screen.getByRole("button", { name: "Save" }));

    expect(await screen.findByText(AI_MODEL.baseUrlRequired)).toBeVisible();
    expect(screen.getByText(AI_MODEL.modelRequired)).toBeVisible();
    expect(screen.getByText(AI_MODEL.inputTokenLimit)).toBeVisible();
    expect(screen.getByText(AI_MODEL.budgetUsd)).toBeVisible();
    expect(screen.getByLabelText("Base URL")).toHaveAttribute("aria-invalid", "true");
    expect(callsTo("/api/ai-model", "PUT")).toHaveLength(0);

    await fill(user, "Base URL", "ftp://models");
    await user.tab();
    expect(await screen.findByText(AI_MODEL.baseUrlInvalid)).toBeVisible();
  });

  it("saves the form's values as a request: dollars to cents, the typed key, and shows the key as set", async () => {
    const user = userEvent.setup();
    renderAiModel();
    await user.click(await screen.findByRole("button", { name: AI_MODEL.add }));
    await user.selectOptions(screen.getByLabelText("Kind"), "openai-compatible");
    await fill(user, "Base URL", "http://127.0.0.1:11434/v1");
    await fill(user, "Model", "llama3.1:8b");
    await fill(user, "API key", "sk-form-key");
    await user.clear(screen.getByLabelText("Input-token limit"));
    await fill(user, "Input-token limit", "64,000");
    await fill(user, "Monthly budget (USD)", "12.5");
    await user.click(screen.getByRole("button", { name: "Save" }));

    expect(await screen.findByText(AI_MODEL.saved)).toBeInTheDocument();
    expect(bodyOf(callsTo("/api/ai-model", "PUT")[0])).toEqual({
      kind: "openai-compatible",
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "llama3.1:8b",
      apiKey: "sk-form-key",
      inputTokenLimit: 64_000,
      monthlyBudgetCents: 1_250,
    });
    // Loaded again: the key is stored, and the field no longer holds it.
    expect(await screen.findByText(AI_MODEL.keySet)).toBeVisible();
    await waitFor(() => expect(screen.getByLabelText("API key")).toHaveValue(""));
    expect(document.body.innerHTML).not.toContain("sk-form-key");
  });

  it("removes the stored key on request, and keeps it unless one is typed", async () => {
    stored = SAVED;
    const user = userEvent.setup();
    renderAiModel();
    expect(await screen.findByText(AI_MODEL.keySet)).toBeVisible();
    expect(screen.getByLabelText("Monthly budget (USD)")).toHaveValue("25.5");
    await user.click(screen.getByRole("button", { name: "Remove the stored key" }));
    expect(screen.getByText(AI_MODEL.keyRemoved)).toBeVisible();
    expect(screen.getByLabelText("API key")).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Save" }));
    // Loaded again after the save: no key now.
    expect(await screen.findByText(AI_MODEL.keyNotSet)).toBeVisible();
    expect(bodyOf(callsTo("/api/ai-model", "PUT")[0])).toMatchObject({ apiKey: null });

    // An empty field keeps whatever is stored: the request carries no apiKey.
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo("/api/ai-model", "PUT")).toHaveLength(2));
    expect(bodyOf(callsTo("/api/ai-model", "PUT")[1])).not.toHaveProperty("apiKey");
  });

  it("removes the AI model: reviews go back to the built-in reviewer", async () => {
    stored = SAVED;
    const user = userEvent.setup();
    renderAiModel();
    await user.click(await screen.findByRole("button", { name: "Remove AI model" }));
    await waitFor(() => expect(callsTo("/api/ai-model", "DELETE")).toHaveLength(1));
    // Loaded again (several steps: a slow machine may take over a second).
    expect(await screen.findByText(AI_MODEL.empty, {}, { timeout: 5000 })).toBeVisible();
  });

  it("tests the form's values and says the reply, or the exact failure, in a live region", async () => {
    stored = SAVED;
    const user = userEvent.setup();
    renderAiModel();
    await user.clear(await screen.findByLabelText("Model"));
    await fill(user, "Model", "unsaved-model");
    await user.click(screen.getByRole("button", { name: "Test connection" }));
    const status = await screen.findByText("Connected in 42 ms. The model replied: pong");
    expect(status.closest("[aria-live]")).toHaveAttribute("role", "status");
    expect(bodyOf(callsTo("/api/ai-model/test", "POST")[0])).toMatchObject({ model: "unsaved-model" });
    expect(bodyOf(callsTo("/api/ai-model/test", "POST")[0])).not.toHaveProperty("apiKey");
    expect(callsTo("/api/ai-model", "PUT")).toHaveLength(0);

    testAnswer = () =>
      jsonResponse({
        success: true,
        data: { ok: false, failure: "unauthorized", message: "The model server answered 401 Unauthorized" },
      });
    await user.click(screen.getByRole("button", { name: "Test connection" }));
    expect(
      await screen.findByText(
        `${MODEL_FAILURE_LABELS.unauthorized}: The model server answered 401 Unauthorized`,
      ),
    ).toBeVisible();

    testAnswer = () =>
      jsonResponse(
        { error: AI_MODEL.testRateLimited, code: "RATE_LIMITED", message: AI_MODEL.testRateLimited },
        429,
      );
    await user.click(screen.getByRole("button", { name: "Test connection" }));
    expect(await screen.findByText(AI_MODEL.testRateLimited)).toBeVisible();
  });

  it("asks for the key again when the kind or base URL changes, and sends nothing until it is given", async () => {
    stored = SAVED;
    const user = userEvent.setup();
    renderAiModel();
    const baseUrl = await screen.findByLabelText("Base URL");
    await user.clear(baseUrl);
    await fill(user, "Base URL", "https://models.example.net/v1");
    await user.click(screen.getByRole("button", { name: "Test connection" }));
    expect(await screen.findByText(AI_MODEL.apiKeyRequired)).toBeVisible();
    expect(screen.getByLabelText("API key")).toHaveAttribute("aria-invalid", "true");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(callsTo("/api/ai-model/test", "POST")).toHaveLength(0);
    expect(callsTo("/api/ai-model", "PUT")).toHaveLength(0);

    await fill(user, "API key", "sk-for-the-new-address");
    await user.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(callsTo("/api/ai-model/test", "POST")).toHaveLength(1));
    expect(bodyOf(callsTo("/api/ai-model/test", "POST")[0])).toMatchObject({
      baseUrl: "https://models.example.net/v1",
      apiKey: "sk-for-the-new-address",
    });

    // Removing the stored key instead is fine too: it then goes nowhere.
    await user.clear(screen.getByLabelText("API key"));
    await user.click(screen.getByRole("button", { name: "Remove the stored key" }));
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo("/api/ai-model", "PUT")).toHaveLength(1));
    expect(bodyOf(callsTo("/api/ai-model", "PUT")[0])).toMatchObject({ apiKey: null });
  });

  it("says a base URL takes no query, fragment or credentials", async () => {
    const user = userEvent.setup();
    renderAiModel();
    await user.click(await screen.findByRole("button", { name: AI_MODEL.add }));
    await fill(user, "Base URL", "http://localhost:11434/v1?key=x");
    await user.tab();
    expect(await screen.findByText(AI_MODEL.baseUrlQuery)).toBeVisible();
    await user.clear(screen.getByLabelText("Base URL"));
    await fill(user, "Base URL", "http://me:secret@localhost:11434/v1");
    await user.tab();
    expect(await screen.findByText(AI_MODEL.baseUrlCredentials)).toBeVisible();
  });

  it("shows this month's AI reviews, tokens and spend against the budget", async () => {
    stored = SAVED;
    renderAiModel();
    const usage = await screen.findByRole("region", { name: AI_MODEL.usageTitle });
    expect(usage).toHaveTextContent("1 Nov 2026 to 30 Nov 2026 (UTC)");
    expect(usage).toHaveTextContent(`${AI_MODEL.usageReviews}12`);
    expect(usage).toHaveTextContent(`${AI_MODEL.usageTokens}123,456 in, 7,890 out`);
    expect(usage).toHaveTextContent(`${AI_MODEL.usageSpent}$4.20 of $25.50`);
    expect(screen.queryByText(AI_MODEL.budgetReached)).toBeNull();
    expect(usage).not.toHaveTextContent("without a known price");
  });

  it("says the budget is spent once the month's cost reaches it, and that unpriced reviews count nothing", async () => {
    stored = {
      ...SAVED,
      monthlyBudgetCents: 400,
      thisMonth: { ...SAVED.thisMonth, unpricedReviews: 1, costMicros: 4_000_000 },
    };
    renderAiModel();
    const usage = await screen.findByRole("region", { name: AI_MODEL.usageTitle });
    expect(usage).toHaveTextContent(`${AI_MODEL.usageSpent}$4.00 of $4.00`);
    expect(within(usage).getByRole("status")).toHaveTextContent(AI_MODEL.budgetReached);
    expect(usage).toHaveTextContent(
      "1 review by a model without a known price (AI_MODEL_PRICES) counts as $0.",
    );
  });

  it("shows the month's spend without a cap when no budget is set", async () => {
    stored = { ...SAVED, monthlyBudgetCents: null };
    renderAiModel();
    const usage = await screen.findByRole("region", { name: AI_MODEL.usageTitle });
    expect(usage).toHaveTextContent(`${AI_MODEL.usageSpent}$4.20 (${AI_MODEL.usageNoCap})`);
    expect(screen.queryByText(AI_MODEL.budgetReached)).toBeNull();
  });

  it("shows a member who is not the owner the model read-only, saying why, with nothing to change it", async () => {
    stored = SAVED;
    renderAiModel("user");
    expect(await screen.findByText(AI_MODEL.readOnly)).toBeVisible();
    const settings = screen.getByText("Input-token limit").closest("dl") as HTMLElement;
    expect(settings).toHaveTextContent("http://localhost:11434/v1");
    expect(settings).toHaveTextContent("qwen2.5-coder:14b");
    expect(settings).toHaveTextContent(`API key${AI_MODEL.keySet}`);
    expect(settings).toHaveTextContent("32,000");
    expect(settings).toHaveTextContent("$25.50");
    expect(screen.getByRole("region", { name: AI_MODEL.usageTitle })).toHaveTextContent(
      `${AI_MODEL.usageSpent}$4.20 of $25.50`,
    );
    expect(screen.queryByRole("textbox")).toBeNull();
    expect(screen.queryByRole("combobox")).toBeNull();
    for (const name of ["Save", "Test connection", "Remove AI model", "Remove the stored key"]) {
      expect(screen.queryByRole("button", { name })).toBeNull();
    }
  });

  it("tells a member who is not the owner that there is no model, without offering to add one", async () => {
    renderAiModel("user");
    expect(await screen.findByText(AI_MODEL.empty)).toBeVisible();
    expect(screen.getByText(AI_MODEL.readOnly)).toBeVisible();
    expect(screen.queryByRole("button", { name: AI_MODEL.add })).toBeNull();
  });

  it("offers Retry when the model cannot be loaded", async () => {
    stored = 500;
    const user = userEvent.setup();
    renderAiModel();
    expect(await screen.findByText(AI_MODEL.loadFailed)).toBeVisible();
    stored = SAVED;
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByLabelText("Model")).toHaveValue("qwen2.5-coder:14b");
  });
});
