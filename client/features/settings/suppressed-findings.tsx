/**
 * A repository's findings marked as noise (docs/product.md#settings, decision 062): a 👎 on a
 * review comment keeps its finding off every later review of the repository, so the repository's
 * settings list them, each with "Post it again". The list and its calls load with the tab, off
 * the page's first load (docs/decisions/006-page-weight.md).
 */
import { Spinner } from "../../components/ui";
import { lazyPart, useLazyPart } from "../../lib/lazy-part";

const list = lazyPart(() => import("./suppressed-findings-list"));

export function SuppressedFindings({ repositoryId }: { repositoryId: string }) {
  const loaded = useLazyPart(list, true);
  return (
    <section aria-labelledby="suppressed-findings-title" className="space-y-2">
      <h3 id="suppressed-findings-title" className="font-medium text-fg text-sm">
        Findings marked as noise
      </h3>
      <p className="text-fg-muted text-sm">
        Marking a review comment as noise keeps its finding off every later review of this repository. Post it
        again if that was a mistake; marking it as noise once more hides it again.
      </p>
      {loaded ? (
        <loaded.SuppressedFindingsList repositoryId={repositoryId} />
      ) : (
        <Spinner size="sm" label="Loading…" />
      )}
    </section>
  );
}
