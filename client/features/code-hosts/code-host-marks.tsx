/**
 * The code hosts' marks on the integration screens, drawn inline (the CSP loads no images from
 * elsewhere and the app serves none): GitHub's from simple-icons, Azure DevOps' as Microsoft
 * publishes it (simple-icons has none), with its blue gradient. Decorative: always shown beside
 * the host's name, which names it.
 */
import { type SVGProps, useId } from "react";
import { siGithub } from "simple-icons";

export function GitHubMark(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false" {...props}>
      <path d={siGithub.path} />
    </svg>
  );
}

export function AzureDevOpsMark(props: SVGProps<SVGSVGElement>) {
  const gradient = useId();
  return (
    <svg viewBox="0 0 18 18" aria-hidden="true" focusable="false" {...props}>
      <defs>
        <linearGradient id={gradient} x1="9" y1="16.97" x2="9" y2="1.03" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#0078d4" />
          <stop offset=".16" stopColor="#1380da" />
          <stop offset=".53" stopColor="#3c91e5" />
          <stop offset=".82" stopColor="#559cec" />
          <stop offset="1" stopColor="#5ea0ef" />
        </linearGradient>
      </defs>
      <path
        d="M17 4v9.74l-4 3.28-6.2-2.26V17l-3.51-4.59 10.23.8V4.44zm-3.41.49L7.85 1v2.29L2.58 4.84 1 6.87v4.61l2.26 1V6.57z"
        fill={`url(#${gradient})`}
      />
    </svg>
  );
}
