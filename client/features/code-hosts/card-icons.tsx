/**
 * The repository cards' icons, drawn once per page: a sprite of <symbol>s that each card's icons
 * <use>, so a page of cards carries each icon's paths once, not once per card
 * (docs/decisions/038-server-side-paging.md). Decorative: the controls that hold them are labelled.
 */
import {
  CircleCheck,
  ExternalLink,
  FlaskConical,
  GitBranch,
  GitFork,
  GitPullRequest,
  Globe,
  Lock,
  MessageSquareCode,
  Settings,
  Webhook,
} from "lucide-react";

const ICONS = {
  active: CircleCheck,
  branch: GitBranch,
  external: ExternalLink,
  fork: GitFork,
  private: Lock,
  public: Globe,
  pulls: GitPullRequest,
  reviews: MessageSquareCode,
  sandbox: FlaskConical,
  settings: Settings,
  webhook: Webhook,
} as const;
export type CardIconName = keyof typeof ICONS;

const symbolId = (name: CardIconName) => `card-icon-${name}`;

/** Every card icon's drawing; render it once, before the cards. */
export function CardIconSprite() {
  return (
    <svg aria-hidden="true" focusable="false" width="0" height="0" className="absolute">
      <defs>
        {(Object.entries(ICONS) as [CardIconName, (typeof ICONS)[CardIconName]][]).map(([name, Icon]) => (
          <symbol key={name} id={symbolId(name)} viewBox="0 0 24 24">
            <Icon />
          </symbol>
        ))}
      </defs>
    </svg>
  );
}

/** One icon of the sprite, sized by `className` like any icon. */
export function CardIcon({ name, className }: { name: CardIconName; className?: string }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" className={className}>
      <use href={`#${symbolId(name)}`} />
    </svg>
  );
}
