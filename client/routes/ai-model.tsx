import { Bot, Plus } from "lucide-react";
import { useState } from "react";
import { href } from "react-router";
import type { AiModelResponse } from "../../shared/contract/ai-model.ts";
import { AI_MODEL, mayChangeAiModel } from "../../shared/contract/ai-model.ts";
import { Streamed } from "../components/streamed";
import { BackLink, Button, Card, EmptyState, Skeleton } from "../components/ui";
import { loadAiModel } from "../features/ai-model/ai-model.server";
import { AiModelForm } from "../features/ai-model/ai-model-form";
import { AiModelReadOnly } from "../features/ai-model/ai-model-read-only";
import { AiMonthUsageCard } from "../features/ai-model/ai-month-usage";
import { aiModelApi } from "../features/ai-model/lazy-ai-model";
import { backendFor } from "../lib/backend.server";
import { useRootData } from "../lib/root-data";
import { documentTitle, productNameOf, type RouteHandle } from "../lib/route-handle";
import type { Route } from "./+types/ai-model";

export const handle: RouteHandle = { title: "Settings" };

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: documentTitle(AI_MODEL.title, productNameOf(matches)) }];
}

/** The first HTML: loaded on the server and streamed; the promise never rejects. */
export function loader({ context, request }: Route.LoaderArgs) {
  const { api } = backendFor(context, request);
  return { model: loadAiModel(api) };
}

/** docs/product.md#settingsai-model */
export default function AiModelRoute({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="ai-model-title" className="mx-auto max-w-2xl space-y-6">
      <BackLink to={href("/settings")}>Organization settings</BackLink>
      <div className="space-y-1">
        <h2 id="ai-model-title" className="font-semibold text-2xl text-fg tracking-tight">
          {AI_MODEL.title}
        </h2>
        <p className="text-fg-muted text-sm">{AI_MODEL.description}</p>
      </div>
      <Streamed
        result={loaderData.model}
        skeleton={<AiModelLoading />}
        errorTitle={AI_MODEL.loadFailed}
        errorDescription="The AI model could not be fetched. Check your connection and try again."
      >
        {(model) => <AiModelBody model={model} />}
      </Streamed>
    </section>
  );
}

function AiModelBody({ model }: { model: AiModelResponse["data"] }) {
  const [adding, setAdding] = useState(false);
  const role = useRootData()?.user?.role;
  // The backend refuses anyone else's change (403); the page does not offer one.
  if (!mayChangeAiModel(role)) return <AiModelReadOnly model={model} />;
  if (!model.configured && !adding) {
    return (
      <EmptyState
        icon={<Bot />}
        title={AI_MODEL.empty}
        description={AI_MODEL.emptyHint}
        action={
          <Button
            icon={<Plus aria-hidden="true" className="size-4" />}
            onPointerEnter={aiModelApi.preload}
            onFocus={aiModelApi.preload}
            onClick={() => setAdding(true)}
          >
            {AI_MODEL.add}
          </Button>
        }
      />
    );
  }
  return (
    <>
      {model.configured ? (
        <AiMonthUsageCard usage={model.thisMonth} budgetCents={model.monthlyBudgetCents} />
      ) : null}
      <Card className="px-6 py-5">
        {/* A save loads the model again: the form starts over from what was saved. */}
        <AiModelForm
          key={model.configured ? model.updatedAt : "new"}
          model={model.configured ? model : null}
          focusFirst={adding}
        />
      </Card>
    </>
  );
}

function AiModelLoading() {
  return (
    <div aria-busy="true">
      <p className="sr-only" role="status">
        {AI_MODEL.loading}
      </p>
      <Card aria-hidden="true" className="space-y-4 px-6 py-5">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-2/3" />
      </Card>
    </div>
  );
}
