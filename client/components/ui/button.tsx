import type { ComponentProps, ReactNode } from "react";
import { Link, type LinkProps } from "react-router";
import { cn } from "../../lib/cn";
import { FIELD_HEIGHT } from "./field-height";
import { Spinner } from "./spinner";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";
/** "field": a field's height, for a button in one row with a text field or select (a search, a filter). */
export type ButtonSize = "sm" | "md" | "field" | "lg";

const BASE =
  "focus-ring inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium " +
  "transition-colors select-none disabled:cursor-not-allowed disabled:opacity-55 aria-disabled:cursor-not-allowed " +
  "aria-disabled:opacity-55";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-accent text-accent-fg shadow-card hover:bg-accent-hover disabled:hover:bg-accent",
  secondary:
    "border border-border-strong bg-surface text-fg shadow-card hover:bg-surface-muted disabled:hover:bg-surface",
  ghost: "text-fg-muted hover:bg-surface-muted hover:text-fg disabled:hover:bg-transparent",
  danger: "bg-danger text-white shadow-card hover:bg-danger-hover disabled:hover:bg-danger",
};

const SIZES: Record<ButtonSize, string> = {
  sm: "h-8 px-3 text-[13px]",
  md: "h-9 px-3.5 text-sm",
  field: `${FIELD_HEIGHT} px-3.5 text-sm`,
  lg: "h-11 px-5 text-[15px]",
};

const ICON_SIZES: Record<ButtonSize, string> = {
  sm: "size-8",
  md: "size-9",
  field: `${FIELD_HEIGHT} aspect-square`,
  lg: "size-11",
};

/** The classes of a button, for the rare element that must look like one (see ButtonLink). */
export function buttonClasses({
  variant = "primary",
  size = "md",
  fullWidth = false,
  iconOnly = false,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  fullWidth?: boolean;
  iconOnly?: boolean;
} = {}): string {
  return cn(BASE, VARIANTS[variant], iconOnly ? ICON_SIZES[size] : SIZES[size], fullWidth && "w-full");
}

export interface ButtonProps extends ComponentProps<"button"> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  fullWidth?: boolean;
  /** Shows a spinner, sets aria-busy and blocks clicks; the label stays so the width holds. */
  loading?: boolean;
  /** An icon before the label; replaced by the spinner while loading. */
  icon?: ReactNode;
}

export function Button({
  variant = "primary",
  size = "md",
  fullWidth,
  loading = false,
  icon,
  disabled,
  className,
  children,
  type = "button",
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={cn(buttonClasses({ variant, size, fullWidth }), className)}
      {...rest}
    >
      {loading ? <Spinner size={size === "lg" ? "md" : "sm"} /> : icon}
      {children}
    </button>
  );
}

export interface IconButtonProps extends Omit<ButtonProps, "children" | "icon" | "fullWidth"> {
  /** The accessible name; also shown as a tooltip. */
  label: string;
  icon: ReactNode;
}

/** A square button with only an icon. The label is required: it is the button's name. */
export function IconButton({
  label,
  icon,
  variant = "ghost",
  size = "md",
  loading = false,
  disabled,
  className,
  type = "button",
  ...rest
}: IconButtonProps) {
  return (
    <button
      type={type}
      aria-label={label}
      title={label}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={cn(buttonClasses({ variant, size, iconOnly: true }), className)}
      {...rest}
    >
      {loading ? <Spinner size="sm" /> : icon}
    </button>
  );
}

export interface ButtonLinkProps extends LinkProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  fullWidth?: boolean;
  icon?: ReactNode;
}

/** A link (navigation) that looks like a button. */
export function ButtonLink({
  variant = "secondary",
  size = "md",
  fullWidth,
  icon,
  className,
  children,
  ...rest
}: ButtonLinkProps) {
  return (
    <Link className={cn(buttonClasses({ variant, size, fullWidth }), className)} {...rest}>
      {icon}
      {children}
    </Link>
  );
}
