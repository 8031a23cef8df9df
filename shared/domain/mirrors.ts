/** Pull mirrors: GitLab's refusal for a project that is none, and its pull mirror details. */
import { badRequest } from './errors.ts';
import type { Project } from './projects.ts';
import { displayUrl } from './urls.ts';

/** 400 `The project is not mirrored` unless the project is a pull mirror. */
export function assertMirror(project: Project): void {
  if (!project.mirror) throw badRequest('The project is not mirrored');
}

/** GET /projects/:id/mirror/pull: the mirror's state; the url never shows its credentials. */
export function pullMirrorDetails(project: Project) {
  return {
    id: project.id,
    last_error: project.import_status === 'failed' ? project.import_error : null,
    last_successful_update_at: project.last_successful_update_at ?? null,
    last_update_at: project.last_update_at ?? null,
    last_update_started_at: project.last_update_started_at ?? null,
    update_status: project.import_status,
    url: project.import_url && displayUrl(project.import_url),
  };
}
