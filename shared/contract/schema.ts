/**
 * How the contract defines a schema: `export const xSchema = schema(() => v.object(...))`.
 *
 * A page that imports an area's module for a path or a message must not pay for the area's
 * schemas. valibot marks its functions pure, but the bundler only sees those marks within one
 * output chunk, and valibot lands in a chunk of its own: a bare top-level `v.object(...)` that no
 * page uses would stay in the area's chunk, with valibot. A call of this function, marked pure
 * here, is one the bundler drops whenever its result is unused
 * (docs/decisions/053-valibot-contract.md).
 */
import * as v from "valibot";

/* @__NO_SIDE_EFFECTS__ */
export function schema<T>(build: () => T): T {
  return build();
}

/** A whole number: the counts, amounts and numbers of the answers. */
export const integerSchema = schema(() => v.pipe(v.number(), v.integer()));

/** A row id as the database makes it. */
export const uuidSchema = schema(() => v.pipe(v.string(), v.uuid()));
