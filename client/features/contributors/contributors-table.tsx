/**
 * The contributors table of /subscriptions (docs/product.md#contributors-and-seats), on TanStack
 * Table (headless; docs/decisions/012-contributors-table-and-seats.md): sorting, search by name and
 * pages of 10, 20 or 30, rendered as a real <table> with the design system's controls. The backend
 * sorts, searches and pages (docs/decisions/038-server-side-paging.md): the page loads the first
 * page, and each change of sort, search or page asks for the one it shows. Loaded on demand by
 * contributors-section.tsx, with the calls it makes.
 */
import {
  type CellContext,
  columnFilteringFeature,
  createColumnHelper,
  rowPaginationFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, UserPlus, Users } from "lucide-react";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { CONTRIBUTOR_PAGE_SIZES, DEFAULT_CONTRIBUTOR_PAGE_SIZE } from "../../../shared/constants.ts";
import type { Subscription } from "../../../shared/contract/billing.ts";
import type {
  Contributor,
  ContributorSuggestion,
  ContributorsPage,
  SeatStatus,
} from "../../../shared/contract/contributors.ts";
import { CONTRIBUTOR_MESSAGES, seatToggleBlock } from "../../../shared/contract/contributors.ts";
import type { ContributorSort } from "../../../shared/contract/paging.ts";
import { formatRole, initialOf } from "../../../shared/format.ts";
import {
  Button,
  EmptyState,
  IconButton,
  ScrollRegion,
  Switch,
  TextField,
  Tooltip,
  useToast,
} from "../../components/ui";
import { inputClasses } from "../../components/ui/text-field";
import { formatLastActivity } from "../billing/format-billing.ts";
import { AddContributorDialog } from "./add-contributor-dialog";
import type { Outcome } from "./contributors-api";
import { contributorCalls } from "./lazy-contributors";
import { useSeatCounts } from "./seat-counts";

// The table keeps the state of its controls; the rows are the page the backend answered.
const features = tableFeatures({ columnFilteringFeature, rowSortingFeature, rowPaginationFeature });

/** Typing pauses this long before the search is asked for. */
const SEARCH_DELAY_MS = 250;

/** The backend's sort for the table's: a sortable column's id, "-" first when descending. */
function sortOf(sorting: SortingState): ContributorSort {
  const [first] = sorting;
  if (!first) return "name";
  return `${first.desc ? "-" : ""}${first.id}` as ContributorSort;
}

/** What a row's cells need beyond the contributor: the seat rules now, and the toggle. */
interface SeatActions {
  now: Date;
  blockOf: (contributor: Contributor) => string | null;
  pending: ReadonlySet<string>;
  toggle: (contributor: Contributor, seated: boolean) => void;
}
const SeatActionsContext = createContext<SeatActions | null>(null);

function SeatCell({ contributor }: { contributor: Contributor }) {
  const actions = useContext(SeatActionsContext);
  if (!actions) return null;
  const reason = actions.blockOf(contributor);
  const seat = (
    <Switch
      label={`Seat for ${contributor.name}`}
      labelHidden
      checked={contributor.seat_id !== null}
      unavailableReason={reason}
      // A second toggle waits for the first's answer. Not `disabled`: that would take the focus away.
      onCheckedChange={(seated) => {
        if (!actions.pending.has(contributor.id)) actions.toggle(contributor, seated);
      }}
    />
  );
  // The reason also shows on hover and focus; the switch itself is described by it either way.
  return (
    <Tooltip content={reason}>
      <span className="inline-flex">{seat}</span>
    </Tooltip>
  );
}

function LastActivityCell({ contributor }: { contributor: Contributor }) {
  const now = useContext(SeatActionsContext)?.now ?? new Date();
  const text = formatLastActivity(contributor.last_git_activity, now);
  return contributor.last_git_activity ? (
    <time dateTime={contributor.last_git_activity}>{text}</time>
  ) : (
    <span className="text-fg-subtle">{text}</span>
  );
}

function Avatar({ contributor }: { contributor: Contributor }) {
  return contributor.avatar_url ? (
    <img src={contributor.avatar_url} alt="" className="size-8 rounded-full" width={32} height={32} />
  ) : (
    <span
      aria-hidden="true"
      className="flex size-8 items-center justify-center rounded-full bg-accent-soft font-medium text-accent-text text-sm"
    >
      {initialOf(contributor.name)}
    </span>
  );
}

const helper = createColumnHelper<typeof features, Contributor>();
const cellOf =
  (Cell: (props: { contributor: Contributor }) => ReactNode) =>
  (context: CellContext<typeof features, Contributor, unknown>) => (
    <Cell contributor={context.row.original} />
  );

const columns = helper.columns([
  helper.display({
    id: "avatar",
    header: () => <span className="sr-only">Avatar</span>,
    cell: cellOf(Avatar),
  }),
  helper.accessor("name", { header: "Name", sortDescFirst: false }),
  helper.accessor("platform_id", {
    header: "Username",
    sortDescFirst: false,
    enableColumnFilter: false,
    // "dennis-" on one line and "rivera" on the next reads as two names; the table scrolls instead.
    cell: (context) => <span className="whitespace-nowrap">{context.getValue()}</span>,
  }),
  helper.accessor("email", {
    header: "E-mail",
    enableSorting: false,
    enableColumnFilter: false,
    // An address split over two lines is as hard to read (or copy) as a username.
    cell: (context) => {
      const email = context.getValue();
      return email ? (
        <span className="whitespace-nowrap">{email}</span>
      ) : (
        <span className="text-fg-subtle">—</span>
      );
    },
  }),
  helper.accessor("role", {
    header: "Role",
    enableSorting: false,
    enableColumnFilter: false,
    cell: (context) => formatRole(context.getValue()),
  }),
  // The latest activity first; people without activity come last either way (the backend's order).
  helper.accessor((row) => (row.last_git_activity ? Date.parse(row.last_git_activity) : undefined), {
    id: "last_git_activity",
    header: "Last activity",
    sortDescFirst: true,
    enableColumnFilter: false,
    cell: cellOf(LastActivityCell),
  }),
  helper.display({ id: "seat", header: "Seat", cell: cellOf(SeatCell) }),
]);

const SORT_ICONS = { asc: ArrowUp, desc: ArrowDown, none: ArrowUpDown } as const;
const ARIA_SORT = { asc: "ascending", desc: "descending", none: undefined } as const;

export interface ContributorsTableProps {
  /** The first page, by name, as the page loaded it. */
  first: ContributorsPage;
  /** Null: no subscription, so no seat management. */
  subscription: Pick<Subscription, "plan" | "isExpired"> | null;
  /** The seat counts the page loaded; changes made here are shared with the plan card. */
  seats: SeatStatus;
}

type ContributorCalls = Awaited<ReturnType<typeof contributorCalls.load>>;

/** A call through the module fetched on demand; the module not coming is that call's failure, same toast. */
async function callOrFailure<T>(
  call: (calls: ContributorCalls) => Promise<Outcome<T>>,
  title: string,
): Promise<Outcome<T>> {
  let calls: ContributorCalls;
  try {
    calls = await contributorCalls.load();
  } catch {
    return { ok: false, title };
  }
  return call(calls);
}

/** Usernames are case-insensitive, as on GitHub. */
function samePerson(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export function ContributorsTable({ first, subscription, seats: loaded }: ContributorsTableProps) {
  const { toast } = useToast();
  const toastFailure = useCallback(
    ({ title, reason }: { title: string; reason?: string }) =>
      toast({ tone: "danger", title, ...(reason ? { description: reason } : {}) }),
    [toast],
  );
  const [rows, setRows] = useState(first.contributors);
  const [total, setTotal] = useState(first.page.total);
  // Whether the organisation has any contributor at all (a search may match nobody).
  const [anyone, setAnyone] = useState(first.page.total > 0);
  const [loading, setLoading] = useState(false);
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [now] = useState(() => new Date());
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  // Asked for once, when the dialog first opens.
  const [known, setKnown] = useState<ContributorSuggestion[] | null>(null);
  useEffect(() => {
    if (adding && known === null)
      void contributorCalls.load().then(
        async (calls) => setKnown(await calls.contributorSuggestions()),
        () => setKnown([]),
      );
  }, [adding, known]);
  // The calls are fetched once the table is pointed at or something in it is focused.
  const area = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = area.current;
    if (!element) return;
    element.addEventListener("pointerenter", contributorCalls.preload);
    element.addEventListener("focusin", contributorCalls.preload);
    return () => {
      element.removeEventListener("pointerenter", contributorCalls.preload);
      element.removeEventListener("focusin", contributorCalls.preload);
    };
  }, []);
  const [seats, setSeats] = useSeatCounts(loaded);
  // The counts as last shown, for a change that completes after another one.
  const latest = useRef(seats);
  latest.current = seats;

  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row) => row.id,
    initialState: {
      sorting: [{ id: "name", desc: false }],
      pagination: { pageIndex: 0, pageSize: DEFAULT_CONTRIBUTOR_PAGE_SIZE },
    },
    manualFiltering: true,
    manualSorting: true,
    manualPagination: true,
    rowCount: total,
    // A seat toggled on page 3 keeps the page; searching goes back to the first page itself.
    autoResetPageIndex: false,
    enableSortingRemoval: false,
  });

  const nameFilter = table.getColumn("name")?.getFilterValue();
  const query = {
    page: table.state.pagination.pageIndex + 1,
    pageSize: table.state.pagination.pageSize,
    search: typeof nameFilter === "string" ? nameFilter.trim() : "",
    sort: sortOf(table.state.sorting),
  };
  // A contributor added asks for the page again (`reloads`): they show where the order puts them.
  const [reloads, setReloads] = useState(0);
  const queryKey = JSON.stringify({ ...query, reloads });
  // The page shown is the one loaded with the page until the controls ask for another.
  const shownKey = useRef(queryKey);
  const shownSearch = useRef(query.search);
  const latestRequest = useRef(0);
  useEffect(() => {
    if (queryKey === shownKey.current) return;
    const asked = JSON.parse(queryKey) as typeof query;
    const request = ++latestRequest.current;
    const timer = setTimeout(
      async () => {
        setLoading(true);
        const outcome = await callOrFailure(
          (calls) => calls.listContributors(asked),
          CONTRIBUTOR_MESSAGES.fetchFailed,
        );
        // A later change has asked for another page meanwhile: this answer is not shown.
        if (request !== latestRequest.current) return;
        setLoading(false);
        if (!outcome.ok) {
          toastFailure(outcome);
          return;
        }
        shownKey.current = queryKey;
        shownSearch.current = asked.search;
        setRows(outcome.value.contributors);
        setTotal(outcome.value.page.total);
        if (!asked.search) setAnyone(outcome.value.page.total > 0);
      },
      asked.search !== shownSearch.current ? SEARCH_DELAY_MS : 0,
    );
    return () => clearTimeout(timer);
  }, [queryKey, toastFailure]);

  const setSeated = useCallback((id: string, seated: boolean) => {
    // The page needs only whether there is a seat; the backend keeps the seat's own id.
    setRows((current) =>
      current.map((row) => (row.id === id ? { ...row, seat_id: seated ? id : null } : row)),
    );
  }, []);

  const toggle = useCallback(
    async (contributor: Contributor, seated: boolean) => {
      const delta = seated ? 1 : -1;
      const shift = (counts: SeatStatus, by: number): SeatStatus => ({
        total_seats: counts.total_seats,
        allocated_seats: counts.allocated_seats + by,
        available_seats: counts.available_seats - by,
      });
      setPending((current) => new Set(current).add(contributor.id));
      setSeated(contributor.id, seated);
      setSeats(shift(latest.current, delta));
      const outcome = await callOrFailure(
        (calls) => calls.setSeat(contributor.id, seated),
        CONTRIBUTOR_MESSAGES.toggleFailed,
      );
      if (outcome.ok) {
        setSeats(outcome.value);
      } else {
        setSeated(contributor.id, !seated);
        setSeats(shift(latest.current, -delta));
        toastFailure(outcome);
      }
      setPending((current) => {
        const next = new Set(current);
        next.delete(contributor.id);
        return next;
      });
    },
    [setSeated, setSeats, toastFailure],
  );

  async function add(username: string): Promise<boolean> {
    const outcome = await callOrFailure(
      (calls) => calls.addContributor(username),
      CONTRIBUTOR_MESSAGES.addFailed,
    );
    if (!outcome.ok) {
      toastFailure(outcome);
      return false;
    }
    const { created } = outcome.value;
    setAnyone(true);
    setReloads((count) => count + 1);
    // The table holds one page, so the person added may not be in it: offered no more either way.
    setKnown((people) => people?.filter((person) => !samePerson(person.platform_id, username)) ?? null);
    toast({ tone: "success", title: created ? CONTRIBUTOR_MESSAGES.added : CONTRIBUTOR_MESSAGES.updated });
    return true;
  }

  const actions: SeatActions = {
    now,
    blockOf: (contributor) => seatToggleBlock(subscription, seats, contributor.seat_id !== null),
    pending,
    toggle,
  };
  const nameColumn = table.getColumn("name");
  const search = typeof nameFilter === "string" ? nameFilter : "";
  const { pageIndex, pageSize } = table.state.pagination;
  const shown = table.getRowModel().rows;

  return (
    <SeatActionsContext.Provider value={actions}>
      <div ref={area} className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <TextField
            className="w-full max-w-xs"
            label="Search by name"
            type="search"
            value={search}
            onChange={(event) => {
              nameColumn?.setFilterValue(event.target.value || undefined);
              table.setPageIndex(0);
            }}
          />
          <Button
            ref={addButton}
            variant="secondary"
            size="field"
            icon={<UserPlus aria-hidden="true" className="size-4" />}
            onClick={() => setAdding(true)}
          >
            Add Contributor
          </Button>
        </div>

        {!anyone ? (
          <EmptyState
            icon={<Users />}
            title="No contributors yet"
            description="Connect GitHub to bring in the people active on your repositories, or add someone by username."
          />
        ) : (
          <ScrollRegion
            label="Contributors table"
            className="rounded-xl border border-border bg-surface"
            busy={loading}
          >
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Contributors</caption>
              <thead className="border-border border-b text-fg-muted">
                {table.getHeaderGroups().map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => {
                      const direction = header.column.getIsSorted() || "none";
                      const Icon = SORT_ICONS[direction];
                      return (
                        <th
                          key={header.id}
                          scope="col"
                          aria-sort={header.column.getCanSort() ? ARIA_SORT[direction] : undefined}
                          className="whitespace-nowrap px-4 py-2.5 font-medium"
                        >
                          {header.column.getCanSort() ? (
                            <button
                              type="button"
                              className="focus-ring -mx-1 inline-flex items-center gap-1 rounded px-1 hover:text-fg"
                              onClick={header.column.getToggleSortingHandler()}
                            >
                              <table.FlexRender header={header} />
                              <Icon aria-hidden="true" className="size-3.5" />
                            </button>
                          ) : (
                            <table.FlexRender header={header} />
                          )}
                        </th>
                      );
                    })}
                  </tr>
                ))}
              </thead>
              <tbody>
                {shown.map((row) => (
                  <tr key={row.id} className="border-border border-b last:border-b-0">
                    {row.getAllCells().map((cell) => (
                      <td key={cell.id} className="px-4 py-2.5 align-middle text-fg">
                        <table.FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                ))}
                {shown.length === 0 ? (
                  <tr>
                    <td colSpan={columns.length} className="px-4 py-6 text-center text-fg-muted">
                      No contributor's name matches “{search}”.
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </ScrollRegion>
        )}

        {anyone ? (
          <nav
            aria-label="Contributor pages"
            className="flex flex-wrap items-center justify-between gap-3 text-sm"
          >
            <div className="flex items-center gap-2">
              <label htmlFor="contributor-page-size" className="whitespace-nowrap text-fg-muted">
                Rows per page
              </label>
              <select
                id="contributor-page-size"
                className={inputClasses({ width: "w-20" })}
                value={pageSize}
                onChange={(event) => {
                  table.setPageSize(Number(event.target.value));
                  table.setPageIndex(0);
                }}
              >
                {CONTRIBUTOR_PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex items-center gap-2">
              <span className="whitespace-nowrap text-fg-muted" aria-live="polite">
                Page {Math.min(pageIndex + 1, Math.max(table.getPageCount(), 1))} of{" "}
                {Math.max(table.getPageCount(), 1)}
              </span>
              <IconButton
                label="Previous page"
                variant="secondary"
                size="sm"
                icon={<ChevronLeft aria-hidden="true" className="size-4" />}
                disabled={!table.getCanPreviousPage()}
                onClick={() => table.previousPage()}
              />
              <IconButton
                label="Next page"
                variant="secondary"
                size="sm"
                icon={<ChevronRight aria-hidden="true" className="size-4" />}
                disabled={!table.getCanNextPage()}
                onClick={() => table.nextPage()}
              />
            </div>
          </nav>
        ) : null}
      </div>
      <AddContributorDialog
        open={adding}
        onOpenChange={setAdding}
        onAdd={add}
        suggestions={(known ?? []).filter(
          (person) => !rows.some((row) => samePerson(row.platform_id, person.platform_id)),
        )}
        returnFocusTo={addButton.current}
      />
    </SeatActionsContext.Provider>
  );
}
