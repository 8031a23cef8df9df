/** Git's dumb HTTP protocol: which repository file a path names, and the files rendered from a state. */
import { describe, expect, it } from 'vitest';
import {
  basicPassword,
  GIT_PATH_MAX_LENGTH,
  gitReadScopeAllows,
  parseGitPath,
  renderHead,
  renderInfoPacks,
  renderInfoRefs,
} from '../../shared/domain/git-http.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

describe('parseGitPath', () => {
  it('names the project by its full path and the file inside its repository', () => {
    expect(parseGitPath('/group/sub/my.project.git/info/refs')).toEqual({
      project: 'group/sub/my.project',
      file: { kind: 'info-refs' },
    });
    expect(parseGitPath('/g/p.git/HEAD')).toEqual({ project: 'g/p', file: { kind: 'head' } });
    expect(parseGitPath('/g/p.git/objects/info/packs')).toEqual({
      project: 'g/p',
      file: { kind: 'info-packs' },
    });
    expect(parseGitPath(`/g/p.git/objects/pack/pack-${A}.pack`)).toEqual({
      project: 'g/p',
      file: { kind: 'pack', pack: `pack-${A}`, file: 'pack' },
    });
    expect(parseGitPath(`/g/p.git/objects/pack/pack-${A}.idx`)?.file).toEqual({
      kind: 'pack',
      pack: `pack-${A}`,
      file: 'idx',
    });
  });

  it('names nothing for loose objects, other files, odd segments or encodings, and long paths', () => {
    for (const path of [
      `/g/p.git/objects/aa/${'b'.repeat(38)}`,
      '/g/p.git/objects/info/alternates',
      '/g/p.git/config',
      '/g/p.git/',
      '/g/p.git',
      '/p.git/info/refs',
      '/g/.git/info/refs',
      '/g/..git/info/refs',
      '/../p.git/info/refs',
      '/g//p.git/info/refs',
      '/g/p.git/info/../HEAD',
      '/g/p.git/info/refs/',
      '/g%2Fp.git/info/refs',
      '/g/p%2Egit/info/refs',
      '/g/p.git/objects/pack/pack-x.pack',
      `/g/p.git/objects/pack/pack-${A.toUpperCase()}.pack`,
      `/g/p.git/objects/pack/pack-${A}.keep`,
      `/g/p.git/objects/pack/../pack/pack-${A}.pack`,
      'g/p.git/info/refs',
      `/${'x/'.repeat(21)}p.git/info/refs`,
      `/g/${'p'.repeat(GIT_PATH_MAX_LENGTH)}.git/info/refs`,
    ]) {
      expect(parseGitPath(path), path).toBeUndefined();
    }
    expect(parseGitPath(`/${'x/'.repeat(20)}p.git/HEAD`)?.project).toBe(`${'x/'.repeat(20)}p`);
  });
});

describe('the rendered files', () => {
  it('lists refs by name, each annotated tag followed by what it peels to', () => {
    const refs = { 'refs/tags/v1': B, 'refs/heads/main': A, 'refs/heads/feature/x': A, 'refs/tags/light': A };
    expect(renderInfoRefs(refs, new Map([[B, C]]))).toBe(
      `${A}\trefs/heads/feature/x\n${A}\trefs/heads/main\n${A}\trefs/tags/light\n${B}\trefs/tags/v1\n${C}\trefs/tags/v1^{}\n`,
    );
    expect(renderInfoRefs({}, new Map())).toBe('');
  });

  it('lists packs with an empty line after them, and HEAD as a symbolic ref', () => {
    expect(renderInfoPacks([`pack-${B}`, `pack-${A}`])).toBe(`P pack-${A}.pack\nP pack-${B}.pack\n\n`);
    expect(renderInfoPacks([])).toBe('\n');
    expect(renderHead('refs/heads/main')).toBe('ref: refs/heads/main\n');
  });
});

describe('credentials of git over HTTP', () => {
  const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

  it('takes the password of Basic authorization, under any user name', () => {
    expect(basicPassword(basic('oauth2:glpat-secret'))).toBe('glpat-secret');
    expect(basicPassword(basic('someone:pass:with:colons'))).toBe('pass:with:colons');
    expect(basicPassword(`basic  ${Buffer.from('u:p').toString('base64')}`)).toBe('p');
  });

  it('takes nothing from other schemes, no password or a malformed header', () => {
    for (const header of [
      undefined,
      'Bearer token',
      basic('only-user'),
      basic('user:'),
      'Basic !!!',
      'Basic',
    ]) {
      expect(basicPassword(header), String(header)).toBeUndefined();
    }
  });

  it('lets in tokens that may fetch code', () => {
    expect(gitReadScopeAllows(['api'])).toBe(true);
    expect(gitReadScopeAllows(['read_repository'])).toBe(true);
    expect(gitReadScopeAllows(['write_repository'])).toBe(true);
    expect(gitReadScopeAllows(['read_api', 'read_user'])).toBe(false);
  });
});
