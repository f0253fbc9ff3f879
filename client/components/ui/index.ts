/** The design system: the only place where a control or a surface gets its look. */
export { Alert, type AlertTone } from "./alert";
export { Badge, type BadgeTone } from "./badge";
export {
  Button,
  ButtonLink,
  type ButtonProps,
  type ButtonSize,
  type ButtonVariant,
  buttonClasses,
  IconButton,
} from "./button";
export { Card, CardBody, CardFooter, CardHeader } from "./card";
export { Drawer } from "./drawer";
export { EmptyState } from "./empty-state";
export { Popover, type PopoverTriggerProps } from "./popover";
export { Skeleton } from "./skeleton";
export { Spinner } from "./spinner";
export { inputClasses, TextField } from "./text-field";
export { TextLink } from "./text-link";
export { type ToastInput, ToastProvider, useToast } from "./toast";
