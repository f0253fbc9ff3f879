/**
 * The AI model as a member who is not the owner sees it (docs/product.md#settingsai-model): what it is set
 * to, read-only, and why it cannot be changed here. Only the owner changes where the organisation's
 * code is sent (docs/decisions/030-model-outbound-calls.md).
 */
import { Bot } from "lucide-react";
import type { AiModelResponse } from "../../../shared/contract/ai-model.ts";
import { AI_MODEL, MODEL_KINDS } from "../../../shared/contract/ai-model.ts";
import { Alert, Badge, Card, EmptyState, Fact } from "../../components/ui";
import { formatCount } from "../../lib/formats.ts";
import { formatMoney } from "../billing/format-billing.ts";
import { AiMonthUsageCard } from "./ai-month-usage";

export function AiModelReadOnly({ model }: { model: AiModelResponse["data"] }) {
  return (
    <div className="space-y-4">
      <Alert>{AI_MODEL.readOnly}</Alert>
      {model.configured ? (
        <AiMonthUsageCard usage={model.thisMonth} budgetCents={model.monthlyBudgetCents} />
      ) : null}
      {model.configured ? (
        <Card className="px-6 py-5">
          <dl className="grid gap-x-6 gap-y-4 text-sm sm:grid-cols-2">
            <Fact term="Kind">{MODEL_KINDS.find((kind) => kind.value === model.kind)?.label}</Fact>
            <Fact term="Base URL">
              <span className="break-all font-mono">{model.baseUrl ?? "The provider's own"}</span>
            </Fact>
            <Fact term="Model">
              <span className="break-all font-mono">{model.model}</span>
            </Fact>
            <Fact term="API key">
              <Badge tone={model.apiKeySet ? "success" : "neutral"}>
                {model.apiKeySet ? AI_MODEL.keySet : AI_MODEL.keyNotSet}
              </Badge>
            </Fact>
            <Fact term="Input-token limit">{formatCount(model.inputTokenLimit)}</Fact>
            <Fact term="Monthly budget (USD)">
              {model.monthlyBudgetCents === null ? "No cap" : formatMoney(model.monthlyBudgetCents)}
            </Fact>
          </dl>
        </Card>
      ) : (
        <EmptyState icon={<Bot />} title={AI_MODEL.empty} description={AI_MODEL.emptyHint} />
      )}
    </div>
  );
}
