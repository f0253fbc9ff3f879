import type { ReactNode } from "react";
import { BrandMark } from "../../components/brand";
import { useProductName } from "../../lib/root-data";

/** The top of every sign-in page: the product mark and name, the page title and a line under it. */
export function AuthHeader({ title, subtitle }: { title: ReactNode; subtitle?: ReactNode }) {
  const productName = useProductName();
  return (
    <div className="mb-7 flex flex-col items-center text-center">
      <BrandMark size="lg" />
      <p className="mt-3 font-semibold text-fg-muted text-sm tracking-wide">{productName}</p>
      <h1 className="mt-5 font-semibold text-2xl text-fg tracking-tight">{title}</h1>
      {subtitle ? <p className="mt-1.5 text-fg-muted text-sm">{subtitle}</p> : null}
    </div>
  );
}
