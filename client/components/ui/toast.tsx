import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from "lucide-react";
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
import { cn } from "../../lib/cn";

export type ToastTone = "info" | "success" | "warning" | "danger";

export interface ToastInput {
  tone?: ToastTone;
  title: string;
  description?: string;
}

interface ToastItem extends Required<Pick<ToastInput, "tone" | "title">> {
  id: number;
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

const TONES: Record<ToastTone, { Icon: typeof Info; icon: string }> = {
  info: { Icon: Info, icon: "text-accent-text" },
  success: { Icon: CircleCheck, icon: "text-success-text" },
  warning: { Icon: TriangleAlert, icon: "text-warning-text" },
  danger: { Icon: CircleAlert, icon: "text-danger-text" },
};

export function ToastProvider({
  children,
  duration = TOAST_DURATION_MS,
}: {
  children: ReactNode;
  duration?: number;
}) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    setItems((current) => current.filter((item) => item.id !== id));
  }, []);

  const toast = useCallback((input: ToastInput) => {
    const id = nextId.current++;
    setItems((current) => [
      ...current.slice(-3),
      { id, tone: input.tone ?? "info", title: input.title, description: input.description },
    ]);
    return id;
  }, []);

  const api = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <section
        aria-label="Notifications"
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end"
      >
        {items.map((item) => (
          <ToastView key={item.id} item={item} duration={duration} onDismiss={dismiss} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

function ToastView({
  item,
  duration,
  onDismiss,
}: {
  item: ToastItem;
  duration: number;
  onDismiss: (id: number) => void;
}) {
  useEffect(() => {
    const timer = window.setTimeout(() => onDismiss(item.id), duration);
    return () => window.clearTimeout(timer);
  }, [item.id, duration, onDismiss]);

  const { Icon, icon } = TONES[item.tone];
  return (
    <div
      className={cn(
        "pointer-events-auto flex w-full max-w-sm animate-toast-in items-start gap-3 rounded-lg border",
        "border-border bg-surface p-3.5 text-sm shadow-popover",
      )}
    >
      <Icon aria-hidden="true" className={cn("mt-0.5 size-4 shrink-0", icon)} />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-fg">{item.title}</p>
        {item.description ? <p className="mt-0.5 text-fg-muted">{item.description}</p> : null}
      </div>
      <button
        type="button"
        onClick={() => onDismiss(item.id)}
        aria-label="Dismiss notification"
        className="focus-ring -m-1 rounded-sm p-1 text-fg-subtle hover:text-fg"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
