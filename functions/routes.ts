/**
 * THE route table: plain data that drives both the CDK stack and the local gateway. Imports no
 * handler. `access` declares what the function may touch; the stack grants exactly that.
 *
 * Each row sits beside its handler, in the table of its entry's area (`functions/<area>/routes.ts`,
 * the area being the first folder under `functions/`; the stack's nested stacks go by the same
 * folder of the function's name, which is the entry unless the row names it, as the note rows do);
 * this file assembles those tables. The order is the table's since before the split (it orders
 * the paths of `docs/openapi.json` and the resources of each template), so an area whose rows came
 * in more than one run has more than one table here: a new row goes at the end of its area's last
 * table, a new area's table before the catch-all.
 */
import { avatarRoutes } from './avatars/routes.ts';
import { awardEmojiRoutes } from './award-emoji/routes.ts';
import { discussionRoutes } from './discussions/routes.ts';
import { epicRoutes } from './epics/routes.ts';
import { forkRoutes } from './forks/routes.ts';
import { groupInheritedMemberRoutes, groupRoutes, groupTreeRoutes } from './groups/routes.ts';
import { hookRoutes } from './hooks/routes.ts';
import { issueRoutes } from './issues/routes.ts';
import { labelRoutes } from './labels/routes.ts';
import { mergeRequestRoutes } from './merge-requests/routes.ts';
import { metaRoutes } from './meta/routes.ts';
import { milestoneRoutes } from './milestones/routes.ts';
import { namespaceRoutes } from './namespaces/routes.ts';
import { noteRoutes } from './notes/routes.ts';
import { personalAccessTokenRoutes, personalAccessTokenSelfRoutes } from './personal-access-tokens/routes.ts';
import { personalSnippetRoutes } from './personal-snippets/routes.ts';
import {
  projectInheritedMemberRoutes,
  projectRoutes,
  projectSubresourceRoutes,
  projectTransferRoutes,
} from './projects/routes.ts';
import { protectedBranchRoutes } from './protected-branches/routes.ts';
import { pushRuleRoutes } from './push-rules/routes.ts';
import { repositoryRoutes } from './repository/routes.ts';
import type { RouteDefinition } from './route-kit.ts';
import { searchRoutes } from './search/routes.ts';
import { snippetRoutes } from './snippets/routes.ts';
import { userProjectRoutes, userRoutes, userStateRoutes } from './users/routes.ts';

export type { Access, HttpMethod, RouteDefinition } from './route-kit.ts';
export { functionNameOf } from './route-kit.ts';

export const routes: readonly RouteDefinition[] = [
  ...userRoutes,
  ...personalAccessTokenRoutes,
  ...groupRoutes,
  ...projectRoutes,
  ...forkRoutes,
  ...repositoryRoutes,
  ...projectSubresourceRoutes,
  ...userProjectRoutes,
  // Issues, merge requests, snippets and epics, and the notes on each.
  ...issueRoutes,
  ...mergeRequestRoutes,
  ...snippetRoutes,
  ...epicRoutes,
  ...noteRoutes,
  ...hookRoutes,
  ...pushRuleRoutes,
  ...userStateRoutes,
  ...personalAccessTokenSelfRoutes,
  ...avatarRoutes,
  ...groupTreeRoutes,
  // Members with their inherited level.
  ...groupInheritedMemberRoutes,
  ...projectInheritedMemberRoutes,
  ...projectTransferRoutes,
  ...namespaceRoutes,
  ...searchRoutes,
  ...personalSnippetRoutes,
  ...awardEmojiRoutes,
  ...labelRoutes,
  ...milestoneRoutes,
  ...discussionRoutes,
  ...metaRoutes,
  ...protectedBranchRoutes,
  // The catch-all: functions/not-found.ts is directly in functions/, in no area's folder.
  { method: 'ANY', path: '$default', entry: 'functions/not-found.ts', access: {} },
];
