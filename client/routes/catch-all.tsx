import { redirect } from "react-router";
import { DEFAULT_PATH } from "../../shared/constants.ts";

/** Any unknown path goes to the default path (docs/product.md#root-and-unknown-paths). */
export function loader() {
  throw redirect(DEFAULT_PATH);
}

export default function CatchAll() {
  return null;
}
