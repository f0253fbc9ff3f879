/**
 * The review settings the pipeline reads, by category and key as the settings catalogue names
 * them. They come through one injected reader, `ReviewSettingsReader`, whose signature is the
 * settings module's `effectiveSettings(db, orgId, projectId)`: until that module is wired in, the
 * defaults below stand in for every organisation.
 */
import type { Db } from "../db/database.ts";

export interface ReviewSettings {
  account_preferences: {
    auto_review: boolean;
    review_draft_pull_requests: boolean;
    review_new_commits: boolean;
    review_on_command: boolean;
  };
  review_scope: {
    skip_generated_files: boolean;
    skip_bot_authors: boolean;
    skip_documentation_only: boolean;
    review_test_files: boolean;
  };
  comment_style: {
    summary_comment: boolean;
    inline_comments: boolean;
    suggested_changes: boolean;
    minor_findings: boolean;
    request_changes: boolean;
  };
}

export type ReviewSettingsReader = (db: Db, orgId: string, projectId: string) => Promise<ReviewSettings>;

/** What a fresh installation does: review every opened pull request and each push, drafts aside. */
export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = {
  account_preferences: {
    auto_review: true,
    review_draft_pull_requests: false,
    review_new_commits: true,
    review_on_command: true,
  },
  review_scope: {
    skip_generated_files: true,
    skip_bot_authors: true,
    skip_documentation_only: true,
    review_test_files: true,
  },
  comment_style: {
    summary_comment: true,
    inline_comments: true,
    suggested_changes: true,
    minor_findings: true,
    request_changes: false,
  },
};

export const defaultReviewSettings: ReviewSettingsReader = async () => DEFAULT_REVIEW_SETTINGS;
