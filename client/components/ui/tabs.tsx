import { Tabs as Radix } from "radix-ui";
import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

export interface TabItem {
  value: string;
  label: ReactNode;
  content: ReactNode;
}

/**
 * Tabs on Radix: one tab stop for the list, arrow keys move between tabs (and show them), Home and
 * End jump to the ends.
 */
export function Tabs({
  label,
  items,
  value,
  defaultValue,
  onValueChange,
  className,
}: {
  /** The tab list's accessible name. */
  label: string;
  items: readonly TabItem[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  className?: string;
}) {
  return (
    <Radix.Root
      value={value}
      defaultValue={defaultValue ?? items[0]?.value}
      onValueChange={onValueChange}
      className={className}
    >
      {/* On a narrow screen the list scrolls sideways rather than wrapping a tab's name. */}
      <Radix.List aria-label={label} className="flex gap-1 overflow-x-auto border-border border-b">
        {items.map((item) => (
          <Radix.Trigger
            key={item.value}
            value={item.value}
            className={cn(
              // The ring inside the tab: the list scrolls sideways, which clips anything drawn outside it.
              "focus-ring focus-visible:-outline-offset-2 rounded-t-md",
              "-mb-px inline-flex h-9 shrink-0 items-center whitespace-nowrap border-transparent border-b-2 px-3",
              "font-medium text-fg-muted",
              "text-sm transition-colors hover:text-fg data-[state=active]:border-accent data-[state=active]:text-fg",
            )}
          >
            {item.label}
          </Radix.Trigger>
        ))}
      </Radix.List>
      {items.map((item) => (
        <Radix.Content key={item.value} value={item.value} className="focus-ring rounded-sm pt-5">
          {item.content}
        </Radix.Content>
      ))}
    </Radix.Root>
  );
}
