/**
 * Import and pull mirroring around the repository job: the checks of an import_url and of the
 * mirror settings when a project is saved, scheduling (a new import, a mirror turned on, a mirror
 * pull, the schedule), and the job itself, which fetches the remote into the project's repository
 * (import.ts of the repository layer) and keeps the project's mirror marker in step.
 */
import type { SQSRecord } from 'aws-lambda';
import { forbidden, validationFailed } from '#domain/errors.ts';
import { type Project, type ProjectAttributes, updatedProject } from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';
import { publish } from '#queue/publish.ts';
import { importFromRemote } from '#repository/import.ts';
import { checkRemoteUrl, RemoteFetchError } from '#repository/remote.ts';
import { forEachPullMirror, syncPullMirrorMarker, unmarkPullMirror } from '#store/projects/mirrors.ts';
import { getProject } from '#store/projects/project-items.ts';
import { updateProject } from '#store/projects/project-writes.ts';
import { readCountedCommits, scheduleImport } from '#store/projects/repository-state.ts';
import { runRepositoryJob } from './repository-job.ts';

// Saving ------------------------------------------------------------------------------------------

/**
 * The import and mirror settings of a create or update, checked: an import_url the address guard
 * refuses (not http/https, unparsable, a blocked address) is GitLab's 400 on `import_url`; only
 * admins name another user as the mirror's user (403); turning a mirror on without naming its
 * user makes the caller that user.
 */
export async function checkedImportSettings<T extends ProjectAttributes>(
  input: T,
  caller: Caller,
): Promise<T> {
  if (input.import_url) {
    try {
      await checkRemoteUrl(input.import_url);
    } catch (error) {
      if (!(error instanceof RemoteFetchError)) throw error;
      throw validationFailed({ import_url: [`is blocked: ${error.reason ?? error.message}`] });
    }
  }
  if (input.mirror_user_id !== undefined && input.mirror_user_id !== caller.id && !caller.admin) {
    throw forbidden();
  }
  if (input.mirror && input.mirror_user_id === undefined) return { ...input, mirror_user_id: caller.id };
  return input;
}

/** Sends a project saved as `scheduled` (a new import) to the import worker. */
export async function sendScheduledImport(project: Project): Promise<void> {
  if (project.import_status === 'scheduled') await publish('repository-import', { projectId: project.id });
}

/** A save asks for a mirror update when it turns a mirror on or gives a mirror another remote. */
const asksForUpdate = (previous: Project, next: Project) =>
  next.mirror === true &&
  next.import_url !== null &&
  (previous.mirror !== true || previous.import_url !== next.import_url);

/**
 * Applies a project update (see updatedProject; to a fresh read when someone saved meanwhile) and,
 * when it turns a mirror on or changes a mirror's remote, schedules its update.
 */
export async function changeProjectSettings(
  project: Project,
  input: ProjectAttributes,
  caller: Caller,
): Promise<Project> {
  const checked = await checkedImportSettings(input, caller);
  let previous = project;
  const saved = await updateProject(project.id, (current) => {
    previous = current;
    return updatedProject(current, checked, new Date().toISOString());
  });
  if (!asksForUpdate(previous, saved)) return saved;
  return requestMirrorUpdate(saved);
}

/** import_status `scheduled` and the job sent; the project as it now shows. */
async function requestMirrorUpdate(project: Project): Promise<Project> {
  await scheduleImport(project.id);
  await publish('repository-import', { projectId: project.id });
  return { ...project, import_status: 'scheduled', import_error: null };
}

/** POST /projects/:id/mirror/pull: an update of a mirror, now. */
export async function pullMirror(project: Project): Promise<void> {
  await requestMirrorUpdate(project);
}

// The job -----------------------------------------------------------------------------------------

export interface ImportJob {
  projectId: number;
  record: SQSRecord;
  maxReceiveCount: number;
  leaseSeconds: number;
}

/**
 * Fetches the project's import_url into its repository (a first import or a mirror update), with
 * import_status following it (see runRepositoryJob). A redelivered message of a finished import
 * of a project that is no mirror does nothing again; a project without an import_url has nothing
 * to fetch. First the project's mirror marker is made to follow its `mirror` setting.
 */
export async function importRepository(job: ImportJob): Promise<void> {
  // Before the job, so a client that sees it finish also sees the project on the schedule's list.
  const current = await getProject(job.projectId);
  if (current) await syncPullMirrorMarker(current);
  await runRepositoryJob(
    job,
    async (project) => {
      const url = project.import_url as string;
      // A mirror's update counts only the commits its new HEAD adds to the one counted last.
      const counted = await readCountedCommits(project.id);
      const result = await importFromRemote(project.id, url, counted ? { earlier: counted } : {});
      return {
        commitCount: result.commitCount,
        repositorySize: result.repositorySize,
        countedAt: result.countedAt,
        defaultBranch: result.defaultBranch,
      };
    },
    (project) => !project.import_url || (!project.mirror && project.import_status === 'finished'),
  );
}

// The schedule ------------------------------------------------------------------------------------

/** An update is already on its way or running: the schedule leaves the mirror alone. */
const updating = (project: Project) =>
  project.import_status === 'scheduled' || project.import_status === 'started';

/**
 * The schedule's run: every listed mirror that is still one and not already being updated gets an
 * update; markers of projects that are no mirror any more (or gone) are dropped. Returns how many
 * updates were scheduled.
 */
export async function updateDueMirrors(): Promise<number> {
  let scheduled = 0;
  await forEachPullMirror(async (page) => {
    for (const { projectId, project } of page) {
      if (!project?.mirror || !project.import_url) {
        await unmarkPullMirror(projectId);
        continue;
      }
      if (updating(project)) continue;
      await requestMirrorUpdate(project);
      scheduled++;
    }
  });
  return scheduled;
}
