import { FlaskConical } from "lucide-react";
import { Badge } from "../../components/ui";

/** Says a page or a card is the sandbox code host's, not GitHub's. */
export function SandboxBadge() {
  return (
    <Badge tone="accent" icon={<FlaskConical aria-hidden="true" />} title="The sandbox code host, not GitHub">
      Sandbox
    </Badge>
  );
}
