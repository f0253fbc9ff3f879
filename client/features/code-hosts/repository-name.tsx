import { Fragment } from "react";

/**
 * "owner/name" breaks after its "/" and nowhere else: "design-" on one line and "system" on the
 * next reads as two words. A part wider than its box on its own ends in "…"; where that can happen,
 * whoever shows it gives the whole name in a `title` (docs/decisions/037-narrow-screens.md). Screen readers get the name
 * as one piece of text: the parts are boxes of their own, which would be read apart.
 */
export function RepositoryName({ name }: { name: string }) {
  const slash = name.lastIndexOf("/");
  const parts = slash === -1 ? [name] : [name.slice(0, slash + 1), name.slice(slash + 1)];
  return (
    <>
      <span className="sr-only">{name}</span>
      <span aria-hidden="true">
        {parts.map((part, index) => (
          <Fragment key={part}>
            {index > 0 ? <wbr /> : null}
            <span className="inline-block max-w-full truncate align-top">{part}</span>
          </Fragment>
        ))}
      </span>
    </>
  );
}
