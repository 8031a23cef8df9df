/** GitLab's access levels and visibility levels. */
export const ACCESS = { none: 0, guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;
/** Levels a member can hold (Gitlab::Access.all_values). */
export const MEMBER_ACCESS_LEVELS = [10, 20, 30, 40, 50] as const;
/** Levels a project can be shared with (Gitlab::Access.values: no owner). */
export const SHARE_ACCESS_LEVELS = [10, 20, 30, 40] as const;

export const VISIBILITIES = ['private', 'internal', 'public'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const visibilityLevel: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

export const moreVisible = (a: Visibility, b: Visibility) => visibilityLevel[a] > visibilityLevel[b];

/** The default notification level GitLab reports in `permissions` (global). */
export const NOTIFICATION_GLOBAL = 3;

export interface Viewer {
  id: number;
  admin: boolean;
  external: boolean;
}

/** Whether a viewer sees something of this visibility without any membership. */
export function visibleWithoutMembership(visibility: Visibility, viewer: Viewer | undefined): boolean {
  if (visibility === 'public') return true;
  if (!viewer) return false;
  if (viewer.admin) return true;
  return visibility === 'internal' && !viewer.external;
}
