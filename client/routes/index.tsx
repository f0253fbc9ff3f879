import { redirect } from "react-router";
import { DEFAULT_PATH } from "../../shared/constants.ts";

/** "/" goes to the default path (docs/product.md#root-and-unknown-paths). */
export function loader() {
  throw redirect(DEFAULT_PATH);
}

export default function Index() {
  return null;
}
