/**
 * Azure DevOps as a review host, in its REST shapes (api-version 7.1; plain fetch as in
 * code-hosts/azure-devops/connect.ts): the pull request, the commit diff (`diffs/commits` for the changed
 * paths, `filediffs` for their changed line blocks, `items` for the text), and threads for comments.
 * Azure DevOps has no patch text, so each file's patch is written here from its line blocks. A
 * review is a summary thread and one thread per line comment; Azure DevOps anchors any line, so
 * nothing is moved to the summary, and it has no "request changes" verdict for a token's owner.
 * The review's check is a pull request status (the token's Code (status) scope).
 */

import type { FindingFeedback } from "../../../shared/contract/reviews.ts";
import type { PullRequestFile } from "../../review/pipeline/diff.ts";
import { addReactions } from "../../review/pipeline/feedback.ts";
import type { ProjectRow } from "../../review/pipeline/pipeline.ts";
import { isObject } from "../github/api-client.ts";
import { CommitNotFoundError, type PullRequestInfo, type ReviewHost } from "../review-host.ts";
import { AzureDevOpsError, azureDevOpsCall, endpoint } from "./connect.ts";
import { type AzureDevOpsConnectionDeps, readAzureDevOpsConnection } from "./connection.ts";

const BRANCH_PREFIX = "refs/heads/";
/** Azure DevOps' thread status "active" (1) and comment type "text" (1). */
const ACTIVE = 1;
const TEXT = 1;
/** The thread status "Won't fix", as text (REST answers) or as its number. */
const WONT_FIX = new Set<unknown>(["wontFix", 3]);
/** The thread status "Active", which a fixed finding's thread leaves for "Fixed". */
const OPEN = new Set<unknown>(["active", ACTIVE]);

type Json = Record<string, unknown>;
const object = (value: unknown): Json => (isObject(value) ? value : {});
const text = (value: unknown) => (typeof value === "string" ? value : "");
const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object) : []);

/**
 * Azure DevOps has likes but no dislike: a comment's likes (`usersLiked`) are its 👍, and a thread
 * its people set to "Won't fix" is one 👎 (docs/review-engine.md, "Feedback").
 */
export function reactionsOf(thread: Json, comment: Json): FindingFeedback {
  return {
    thumbsUp: list(comment.usersLiked).length,
    thumbsDown: WONT_FIX.has(thread.status) ? 1 : 0,
  };
}

const lines = (content: string) => content.replace(/\r?\n$/, "").split(/\r?\n/);

/** Azure DevOps' line blocks as unified-diff hunks without context lines. */
function patchOf(blocks: Json[], base: string[], head: string[]): string {
  return blocks
    .filter((block) => block.changeType !== "none" && block.changeType !== 0)
    .map((block) => {
      const oldStart = count(block.originalLineNumberStart);
      const oldLines = count(block.originalLinesCount);
      const newStart = count(block.modifiedLineNumberStart);
      const newLines = count(block.modifiedLinesCount);
      return [
        `@@ -${oldStart},${oldLines} +${newStart},${newLines} @@`,
        ...base.slice(oldStart - 1, oldStart - 1 + oldLines).map((line) => `-${line}`),
        ...head.slice(newStart - 1, newStart - 1 + newLines).map((line) => `+${line}`),
      ].join("\n");
    })
    .join("\n");
}

const STATUS: Record<string, PullRequestFile["status"]> = {
  add: "added",
  edit: "modified",
  delete: "removed",
  rename: "renamed",
};

export async function azureDevOpsReviewHost(
  deps: AzureDevOpsConnectionDeps,
  project: ProjectRow,
): Promise<ReviewHost> {
  const target = await readAzureDevOpsConnection(deps, project.org_id);
  if (!target) throw new Error("The organisation's Azure DevOps connection is not set up");
  const repository = project.external_id;
  if (!repository) throw new Error("The project does not name its Azure DevOps repository");
  const at = (segments: string[], query?: Record<string, string>) =>
    endpoint(
      target.organizationUrl,
      [target.project, "_apis", "git", "repositories", repository, ...segments],
      query,
    );
  const call = (url: URL, what: string, body?: unknown, method?: "PATCH") =>
    azureDevOpsCall(target, url, what, body === undefined ? {} : { body, ...(method ? { method } : {}) });
  /** Texts read in this run, by commit and path: each file's head text serves both its patch and Biome. */
  const texts = new Map<string, Promise<string | null>>();

  function fileContent(path: string, sha: string): Promise<string | null> {
    const key = `${sha}\u0000${path}`;
    let found = texts.get(key);
    if (!found) {
      found = (async () => {
        try {
          const item = object(
            await call(
              at(["items"], {
                path,
                "versionDescriptor.version": sha,
                "versionDescriptor.versionType": "commit",
                includeContent: "true",
                $format: "json",
              }),
              "file",
            ),
          );
          if (object(item.contentMetadata).isBinary === true) return null;
          return typeof item.content === "string" ? item.content : null;
        } catch (error) {
          if (error instanceof AzureDevOpsError && error.reason === "not-found") return null;
          throw error;
        }
      })();
      texts.set(key, found);
    }
    return found;
  }

  const threadsOf = async (number: number) =>
    list(object(await call(at(["pullRequests", String(number), "threads"]), "threads")).value);

  const postStatus = (number: number, status: Json) =>
    call(at(["pullRequests", String(number), "statuses"]), "pull request status", status);

  const postThread = (number: number, content: string, threadContext?: Json) =>
    call(at(["pullRequests", String(number), "threads"]), "thread", {
      comments: [{ parentCommentId: 0, content, commentType: TEXT }],
      status: ACTIVE,
      ...(threadContext ? { threadContext } : {}),
    });

  return {
    async pullRequest(number): Promise<PullRequestInfo> {
      const pr = object(await call(at(["pullrequests", String(number)]), "pull request"));
      const author = object(pr.createdBy);
      const web = text(object(pr.repository).webUrl);
      const status = text(pr.status);
      return {
        number,
        title: text(pr.title),
        url: web ? `${web}/pullrequest/${number}` : project.external_link,
        // Azure DevOps does not mark bot accounts; build identities are the usual authors that are not people.
        author: { login: text(author.uniqueName), isBot: /^Build\\/i.test(text(author.uniqueName)) },
        draft: pr.isDraft === true,
        state: status === "active" ? "open" : status === "completed" ? "merged" : "closed",
        headSha: text(object(pr.lastMergeSourceCommit).commitId),
        baseSha: text(object(pr.lastMergeTargetCommit).commitId),
        headRef: text(pr.sourceRefName).replace(BRANCH_PREFIX, ""),
        baseRef: text(pr.targetRefName).replace(BRANCH_PREFIX, ""),
      };
    },

    async changedFiles(_number, fromSha, toSha) {
      const commitDiff = call(
        at(["diffs", "commits"], {
          baseVersion: fromSha,
          baseVersionType: "commit",
          targetVersion: toSha,
          targetVersionType: "commit",
          diffCommonCommit: "true",
        }),
        "commit diff",
      ).catch((error: unknown) => {
        // The pull request was just read: a 404 here is a commit the repository no longer has.
        if (error instanceof AzureDevOpsError && error.reason === "not-found") {
          throw new CommitNotFoundError(`Azure DevOps does not know ${fromSha}...${toSha}`);
        }
        throw error;
      });
      const diff = object(await commitDiff);
      // The diff is taken from the merge base, as the pull request shows it.
      const base = text(diff.commonCommit) || fromSha;
      const changes = list(diff.changes).filter((change) => object(change.item).isFolder !== true);
      const described = changes.map((change) => {
        const kinds = text(change.changeType)
          .split(",")
          .map((kind) => kind.trim());
        const status = STATUS[kinds.find((kind) => STATUS[kind]) ?? "edit"] ?? "modified";
        const path = text(object(change.item).path);
        const originalPath = text(change.sourceServerItem) || text(change.originalPath) || path;
        return { path, originalPath, status };
      });
      const edited = described.filter((file) => file.status === "modified" || file.status === "renamed");
      const blocks = edited.length
        ? list(
            await call(at(["filediffs"]), "file diffs", {
              baseVersionCommit: base,
              targetVersionCommit: toSha,
              fileDiffParams: edited.map(({ path, originalPath }) => ({ path, originalPath })),
            }),
          )
        : [];
      return Promise.all(
        described.map(async (file): Promise<PullRequestFile> => {
          const head = file.status === "removed" ? null : await fileContent(file.path, toSha);
          const before =
            file.status === "added" || head === null ? null : await fileContent(file.originalPath, base);
          const headLines = head === null ? [] : lines(head);
          let patch: string | undefined;
          if (file.status === "added" && head !== null) {
            patch = `@@ -0,0 +1,${headLines.length} @@\n${headLines.map((line) => `+${line}`).join("\n")}`;
          } else if (before !== null && head !== null) {
            const fileBlocks = list(blocks.find((entry) => entry.path === file.path)?.lineDiffBlocks);
            patch = patchOf(fileBlocks, lines(before), headLines) || undefined;
          }
          const changed = patch?.split("\n") ?? [];
          return {
            filename: file.path.replace(/^\//, ""),
            ...(file.status === "renamed" ? { previous_filename: file.originalPath.replace(/^\//, "") } : {}),
            status: file.status,
            additions: changed.filter((line) => line.startsWith("+")).length,
            deletions: changed.filter((line) => line.startsWith("-")).length,
            ...(patch ? { patch } : {}),
          };
        }),
      );
    },

    fileContent: (path, sha) => fileContent(path.startsWith("/") ? path : `/${path}`, sha),
    async listFiles(directory, sha) {
      try {
        const answer = object(
          await call(
            at(["items"], {
              scopePath: `/${directory.replace(/^\/+|\/+$/g, "")}`,
              recursionLevel: "OneLevel",
              "versionDescriptor.version": sha,
              "versionDescriptor.versionType": "commit",
            }),
            "folder",
          ),
        );
        // The folder itself comes first, then its entries; folders among them are left out.
        return list(answer.value)
          .filter((item) => item.isFolder !== true && item.gitObjectType !== "tree")
          .map((item) => text(item.path).replace(/^\//, ""))
          .filter(Boolean);
      } catch (error) {
        if (error instanceof AzureDevOpsError && error.reason === "not-found") return [];
        throw error;
      }
    },

    async postedFindings(number, readMarkers) {
      const found = new Map<string, FindingFeedback>();
      // The engine posts as the token's owner, a person: who wrote a thread tells nothing, so only
      // a marker's signature says the engine wrote it.
      for (const thread of await threadsOf(number)) {
        for (const comment of list(thread.comments)) {
          for (const fp of readMarkers(text(comment.content))) {
            addReactions(found, fp, reactionsOf(thread, comment));
          }
        }
      }
      return found;
    },

    async postReview(number, review) {
      if (review.summary) await postThread(number, review.summary);
      for (const comment of review.comments) {
        const position = { line: comment.line, offset: 1 };
        await postThread(number, comment.body, {
          filePath: `/${comment.path}`,
          rightFileStart: position,
          rightFileEnd: position,
        });
      }
      return { posted: review.comments.length, movedToSummary: 0 };
    },

    async resolveComments(number, fingerprints, readMarkers) {
      let resolved = 0;
      for (const thread of await threadsOf(number)) {
        // Only an open line thread (a summary thread lists findings too, but is not about a line).
        if (!OPEN.has(thread.status) || !isObject(thread.threadContext)) continue;
        const [first] = list(thread.comments);
        if (!readMarkers(text(first?.content)).some((fp) => fingerprints.has(fp))) continue;
        await call(
          at(["pullRequests", String(number), "threads", String(thread.id)]),
          "thread status",
          { status: "fixed" },
          "PATCH",
        );
        resolved += 1;
      }
      return resolved;
    },

    async comment(number, body) {
      await postThread(number, body);
    },

    // The review's check is a pull request status; the last one of a context is what shows.
    async startCheck(number, check) {
      const context = { name: "review", genre: check.name };
      await postStatus(number, {
        state: "pending",
        description: "Reviewing",
        context,
        targetUrl: check.detailsUrl,
      });
      return check.name;
    },

    async finishCheck(number, name, end) {
      await postStatus(number, {
        state: end.conclusion === "success" ? "succeeded" : "notApplicable",
        description: `${end.title}${end.conclusion === "success" ? "" : `: ${end.summary}`}`.slice(0, 400),
        context: { name: "review", genre: name },
        targetUrl: end.detailsUrl,
      });
    },
  };
}
