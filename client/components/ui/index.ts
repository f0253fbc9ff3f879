/** The design system: the only place where a control or a surface gets its look. */
export { Alert } from "./alert";
export { Badge } from "./badge";
export { Button, ButtonLink, buttonClasses, IconButton } from "./button";
export { Card } from "./card";
export { Drawer } from "./drawer";
export { EmptyState } from "./empty-state";
export { Popover } from "./popover";
export { SelectField } from "./select-field";
export { Skeleton } from "./skeleton";
export { Spinner } from "./spinner";
export { TextField } from "./text-field";
export { TextLink } from "./text-link";
export { ToastProvider, useToast } from "./toast";
