import { Outlet } from "react-router";
import { AuthFrame } from "../features/accounts/auth-frame";

/**
 * Public account pages (password reset, e-mail verification, the login callback): opened from
 * e-mails and redirects, they render for everyone, signed in or not (docs/product.md#routes).
 */
export default function PublicLayout() {
  return (
    <AuthFrame>
      <Outlet />
    </AuthFrame>
  );
}
