/** The design system: the only place where a control or a surface gets its look. */
export { Alert } from "./alert";
export { Badge } from "./badge";
export { Button, ButtonLink, buttonClasses, IconButton } from "./button";
export { Card } from "./card";
export { Dialog, type DialogProps } from "./dialog";
export { Drawer, preloadDrawer } from "./drawer";
export { EmptyState } from "./empty-state";
export { type ClosePopover, Popover } from "./popover";
export { ScrollRegion } from "./scroll-region";
export { SelectField } from "./select-field";
export { Skeleton } from "./skeleton";
export { Spinner } from "./spinner";
export { Switch } from "./switch";
export { type TabItem, Tabs } from "./tabs";
export { TextField } from "./text-field";
export { TextLink } from "./text-link";
export { ToastProvider, useToast } from "./toast";
export { Tooltip } from "./tooltip";
