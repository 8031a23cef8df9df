import { invalidParams } from '#domain/errors.ts';
import { labelsAfter, projectLabelOwners } from '#domain/labels.ts';
import { mergeRequestChanges, mergeRequestEntity, updateParamsError } from '#domain/merge-requests.ts';
import { mayUpdateMergeRequest } from '#domain/noteable-policy.ts';
import { mergeRequestSchemas } from '#domain/schemas/merge-requests.ts';
import { mergeRequestToChange } from '#http/merge-request-loaders.ts';
import { defineRoute } from '#http/route.ts';
import { mergeRequestUsers } from '#store/issuables/merge-request-items.ts';
import { changeMergeRequest } from '#store/issuables/merge-request-writes.ts';
import { createMissingLabels } from '#store/labels/labels.ts';

/** Developers and up, the author and the assignees change a merge request; `state_event` closes or reopens it. */
export const handler = defineRoute({
  auth: 'user',
  params: mergeRequestSchemas.update,
  load: mergeRequestToChange(mayUpdateMergeRequest),
  run: async ({ params: input, caller, request, project, mergeRequest }) => {
    const edited = { ...input, labels: labelsAfter(mergeRequest.labels, input) };
    const refused = updateParamsError(edited);
    if (refused) throw invalidParams(refused);
    if (edited.labels) await createMissingLabels(projectLabelOwners(project), edited.labels, project.id);
    const changed = await changeMergeRequest(
      mergeRequest,
      mergeRequestChanges(mergeRequest, edited),
      input.state_event,
      caller.id,
    );
    return mergeRequestEntity(changed, project, await mergeRequestUsers(changed), request.baseUrl, caller.id);
  },
});
