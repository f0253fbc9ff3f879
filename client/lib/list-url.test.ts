import { describe, expect, it } from "vitest";
import { PAGE_MAX, SEARCH_MAX } from "../../shared/contract/paging.ts";
import { listSearchOf, listStateOf } from "./list-url";

describe("a list's state in the URL", () => {
  it("reads the page and the search, the first page and no search for anything malformed", () => {
    expect(listStateOf("http://x/home?search=%20web%20&page=3")).toEqual({ page: 3, search: "web" });
    for (const page of ["0", "-1", "1.5", "abc", String(PAGE_MAX + 1), ""]) {
      expect(listStateOf(`/home?page=${page}`).page, page).toBe(1);
    }
    expect(listStateOf(`/home?search=${"a".repeat(SEARCH_MAX + 10)}`).search).toHaveLength(SEARCH_MAX);
  });

  it("writes the filters, then the search and a page past the first, and nothing for the defaults", () => {
    expect(listSearchOf({ page: 1, search: "" })).toBe("");
    expect(listSearchOf({ page: 2, search: "a&b" }, { status: "failed", projectId: undefined })).toBe(
      "?status=failed&search=a%26b&page=2",
    );
  });
});
