import type { FormEvent } from "react";
import { useNavigate } from "react-router";

/**
 * The submit handler of a list's GET filter form once the page is hydrated: it goes to the same URL
 * the browser would, without the fields left empty ("?status=failed", not "?search=&status=failed"),
 * as the list's own links write it. Before hydration the browser's own GET still works: the
 * loaders read an empty field as none.
 */
export function useFilterSubmit(): (event: FormEvent<HTMLFormElement>) => void {
  const navigate = useNavigate();
  return (event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string" && value.trim() !== "") params.append(name, value.trim());
    }
    const query = params.toString();
    navigate(`${new URL(event.currentTarget.action).pathname}${query ? `?${query}` : ""}`);
  };
}
