import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { TOAST_DURATION_MS } from "../../../shared/constants.ts";
import { lazyPart, useLazyPart } from "../../lib/lazy-part";

export type ToastTone = "info" | "success" | "warning" | "danger";

export interface ToastInput {
  tone?: ToastTone;
  title: string;
  description?: string;
}

interface ToastApi {
  /** Shows a message that dismisses itself after TOAST_DURATION_MS; answers its id. */
  toast: (input: ToastInput) => number;
  dismiss: (id: number) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

const noop: ToastApi = { toast: () => -1, dismiss: () => {} };

/** The toast functions. Outside a ToastProvider (in isolated tests) it does nothing. */
export function useToast(): ToastApi {
  return useContext(ToastContext) ?? noop;
}

// sonner and the toast's look load with the first toast, not with the page.
const toaster = lazyPart(() => import("./toaster"));

/**
 * Toasts through sonner (docs/decisions/007-ui-primitives-and-forms.md): a polite live region,
 * stacked, dismissed after `duration`. The region is mounted before the first toast is handed to it,
 * so screen readers announce that one too.
 */
export function ToastProvider({
  children,
  duration = TOAST_DURATION_MS,
}: {
  children: ReactNode;
  duration?: number;
}) {
  const [wanted, setWanted] = useState(false);
  const [queued, setQueued] = useState(0);
  const queue = useRef<{ id: number; input: ToastInput }[]>([]);
  const nextId = useRef(1);
  const module = useLazyPart(toaster, wanted);

  // Runs after the Toaster below is in the DOM (effects follow the commit).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `queued` is the signal to flush
  useEffect(() => {
    if (!module) return;
    for (const { id, input } of queue.current.splice(0)) module.showToast(id, input, duration);
  }, [module, queued, duration]);

  const toast = useCallback((input: ToastInput) => {
    const id = nextId.current++;
    queue.current.push({ id, input });
    setWanted(true);
    setQueued((count) => count + 1);
    return id;
  }, []);

  const dismiss = useCallback(
    (id: number) => {
      queue.current = queue.current.filter((item) => item.id !== id);
      module?.dismissToast(id);
    },
    [module],
  );

  const api = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);
  const Toaster = module?.Toaster;

  return (
    <ToastContext.Provider value={api}>
      {children}
      {Toaster ? <Toaster /> : null}
    </ToastContext.Provider>
  );
}
