/**
 * python-gitlab (Debian package python3-gitlab), unchanged, against the local runtime: project and
 * group labels (create, list, get, save, subscribe, delete) and labels on issues, with the list
 * filters by label. CI installs the package; on a machine without it these tests are reported as
 * skipped, never as passed.
 */
import { describe, expect, it } from 'vitest';
import { PASSED, pythonGitlabAvailable, runCheck } from '../support/python-gitlab.ts';

describe('python-gitlab labels', () => {
  it.skipIf(!pythonGitlabAvailable)(
    'project.labels and group.labels round trip; issue.labels saved; issues listed by labels, Any and None',
    async () => {
      expect(await runCheck('check_labels.py')).toEqual(PASSED);
    },
    120_000,
  );
});
