/**
 * What the generator's writes survive (issue "Hardening", item 7): a symlink out of the project,
 * a failure part-way through, a conflict with no terminal, control characters in a base URL and
 * a directory a shell would mangle. Every refusal and failure is checked against a snapshot of
 * the whole tree (symlinks as links, never followed) taken before the run.
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommitError, STAGING_PREFIX, commitChanges, commitIo } from '../../generators/app/staged-commit.js';
import { ALL_FLAGS, runGenerator } from './helpers.js';
import { type Answers } from '../../generators/app/answers.js';
import { SAMPLE_ANSWERS } from './sample-answers.js';
import { envFileValue } from '../../generators/app/env-value.js';
import { readVersions, renderTemplate, templateContext } from '../../generators/app/render.js';
import { cdArgument } from '../../generators/app/summary.js';
import { BIN, ROOT, childEnv, runCli } from '../helpers/rig.js';
import { giveToUser, pickRunner, runAs } from './as-user.js';
import { toolAvailable } from '../helpers/tools.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gen-writes-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) {
    chmodTree(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Undoes a test's read-only folders so the temp tree can be removed. */
function chmodTree(dir: string): void {
  if (!existsSync(dir) || lstatSync(dir).isSymbolicLink()) return;
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) if (lstatSync(join(dir, name)).isDirectory()) chmodTree(join(dir, name));
}

/** Relative path -> contents, `dir/` or `-> link target` of everything under `root`, links not followed. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const stat = lstatSync(join(root, path));
      if (stat.isSymbolicLink()) out[path] = `-> ${readlinkSync(join(root, path))}`;
      else if (stat.isDirectory()) {
        out[path] = 'dir/';
        walk(path);
      } else out[path] = readFileSync(join(root, path), 'utf8');
    }
  };
  walk('');
  return out;
}

async function failure(run: PromiseLike<unknown>): Promise<Error> {
  return Promise.resolve(run).then(
    () => {
      throw new Error('the run was expected to fail');
    },
    (error: unknown) => error as Error,
  );
}

/** A project generated with every answer given, in its own temp dir. */
async function generated(): Promise<{ cwd: string; project: string }> {
  const cwd = tempDir();
  await runGenerator({ ...ALL_FLAGS }).cd(cwd);
  return { cwd, project: join(cwd, 'nowak-sync') };
}

/** `repairmon new|upgrade` as a user runs it: compiled, stdin a pipe (no terminal). */
function repairmon(args: readonly string[], cwd: string) {
  return runCli(args, { cwd, timeoutMs: 60_000 });
}

describe('never through a symlink that leaves the project', () => {
  it('a re-run where src is a link to ../outside: refused naming src, nothing written there or here', async () => {
    const { cwd, project } = await generated();
    mkdirSync(join(cwd, 'outside'));
    rmSync(join(project, 'src'), { recursive: true });
    symlinkSync('../outside', join(project, 'src'));
    const before = tree(cwd);
    const error = await failure(runGenerator({}).cd(project));
    expect(error.message).toContain(`src: a symbolic link to ${join(cwd, 'outside')}, outside the project`);
    expect(error.message).toContain('nothing was written');
    expect(tree(cwd)).toEqual(before);
  });

  it('a dangling link where a missing file goes (README.md -> ../planted.md) is not written through', async () => {
    const { cwd, project } = await generated();
    rmSync(join(project, 'README.md'));
    symlinkSync('../planted.md', join(project, 'README.md'));
    const before = tree(cwd);
    const error = await failure(runGenerator({}).cd(project));
    expect(error.message).toContain('README.md: a symbolic link that leads nowhere (to ../planted.md)');
    expect(tree(cwd)).toEqual(before);
  });

  it('package.json linked to a file outside: the merge would write through it, so the run is refused', async () => {
    const { cwd, project } = await generated();
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    delete pkg.scripts['check'];
    writeFileSync(join(cwd, 'shared-package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    rmSync(join(project, 'package.json'));
    symlinkSync(join(cwd, 'shared-package.json'), join(project, 'package.json'));
    const before = tree(cwd);
    const error = await failure(runGenerator({}).cd(project));
    expect(error.message).toContain(`package.json: a symbolic link to ${join(cwd, 'shared-package.json')}, outside the project`);
    expect(tree(cwd)).toEqual(before);
  });

  it('a link that stays inside the project is fine: a deleted toolkit file comes back through it', async () => {
    const { project } = await generated();
    mkdirSync(join(project, 'vendor'));
    renameSync(join(project, 'src/repair-service'), join(project, 'vendor/repair-service'));
    symlinkSync('../vendor/repair-service', join(project, 'src/repair-service'));
    rmSync(join(project, 'vendor/repair-service/client/retry.ts'));
    await runGenerator({}).cd(project);
    expect(existsSync(join(project, 'vendor/repair-service/client/retry.ts'))).toBe(true);
    expect(lstatSync(join(project, 'src/repair-service')).isSymbolicLink()).toBe(true);
  });
});

describe('all or nothing', () => {
  it('a directory where a file goes is found before the first write: nothing written, no .yo-rc.json to skip the next check', async () => {
    const cwd = tempDir();
    const project = join(cwd, 'nowak-sync');
    mkdirSync(join(project, 'test', 'config.test.ts'), { recursive: true });
    writeFileSync(join(project, 'test', 'config.test.ts', 'mine.txt'), 'mine\n');
    writeFileSync(join(project, 'notes.txt'), 'mine\n');
    const before = tree(cwd);
    const error = await failure(runGenerator({ ...ALL_FLAGS, force: true }, { force: true }).cd(cwd));
    expect(error.message).toContain('test/config.test.ts: a directory where the generator writes a file');
    expect(tree(cwd)).toEqual(before);
    // Without --force the directory is still someone else's: the check a .yo-rc.json would skip.
    await expect(runGenerator({ ...ALL_FLAGS }).cd(cwd)).rejects.toThrow(
      /nowak-sync is not empty \(2 entries\) and was not generated by repair-service/,
    );
    expect(tree(cwd)).toEqual(before);
  });

  it('a file where a folder goes (src/repair-service) is refused too', async () => {
    const { cwd, project } = await generated();
    rmSync(join(project, 'src/repair-service'), { recursive: true });
    writeFileSync(join(project, 'src/repair-service'), 'a file\n');
    const before = tree(cwd);
    const error = await failure(runGenerator({}).cd(project));
    expect(error.message).toContain('src/repair-service: a file where the generator needs a folder');
    expect(tree(cwd)).toEqual(before);
  });

  const runner = pickRunner();
  const asUser = runner.kind !== 'skip' || toolAvailable(false, 'the read-only folder test of generator writes', runner.why);
  it.skipIf(!asUser)(
    'as a non-root user, a folder it cannot write fails the re-run part-way: the project is left exactly as it was',
    { timeout: 60_000 },
    async () => {
      const cwd = tempDir();
      const home = tempDir();
      giveToUser(runner, cwd);
      giveToUser(runner, home);
      const env = childEnv({ HOME: home });
      const first = await runAs(runner, process.execPath, [BIN, 'new', 'p', '--yes', '--skip-install'], { cwd, env });
      expect(first.code, first.stderr).toBe(0);
      const project = join(cwd, 'p');
      // Missing files on both sides of the read-only folder: the old run wrote the first ones, then failed.
      for (const file of ['README.md', 'src/index.ts', 'test/config.test.ts', 'src/repair-service/client/retry.ts'])
        rmSync(join(project, file));
      chmodSync(join(project, 'test'), 0o555);
      const before = tree(cwd);
      const again = await runAs(runner, process.execPath, [BIN, 'new', 'p', '--skip-install'], { cwd, env });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('test/config.test.ts');
      expect(again.stderr).toContain('the project was left as it was');
      expect(again.stderr).not.toContain('An error occured');
      expect(tree(cwd)).toEqual(before);
    },
  );
});

/** Fails the `n`th call of one of commitIo's steps (1-based); counts them all. */
function failNth(step: 'rename' | 'writeFile', n: number): { calls: () => number } {
  let calls = 0;
  const original: (...args: never[]) => void = commitIo[step].bind(commitIo);
  vi.spyOn(commitIo, step).mockImplementation(((...args: never[]) => {
    calls += 1;
    if (calls === n) throw Object.assign(new Error(`EIO: injected failure of ${step} #${n}`), { code: 'EIO' });
    original(...args);
  }) as never);
  return { calls: () => calls };
}

/** A generated project a --force re-run changes in every way: adds (one a whole folder), updates, a .orig, a merge. */
async function projectWithChanges(): Promise<{ cwd: string; project: string }> {
  const made = await generated();
  const { project } = made;
  for (const file of ['README.md', 'src/index.ts']) rmSync(join(project, file));
  rmSync(join(project, 'src/repair-service/checklist'), { recursive: true });
  writeFileSync(join(project, 'src/repair-service/client/retry.ts'), '// patched locally\n', { flag: 'a' });
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  delete pkg.scripts['check'];
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return made;
}

const forced = () => runGenerator({ force: true }, { force: true });

describe('a failure part-way is undone', () => {
  it('the Nth move into place fails, for N from the first to the last (.yo-rc.json): the tree is as it was, no staging left', async () => {
    const { cwd, project } = await projectWithChanges();
    const before = tree(cwd);
    // How many moves a whole run makes, on a copy.
    const copy = tempDir();
    cpSync(project, copy, { recursive: true });
    const counter = failNth('rename', 0);
    await forced().cd(copy);
    const total = counter.calls();
    vi.restoreAllMocks();
    expect(total).toBeGreaterThan(10);
    for (const n of [1, 2, Math.floor(total / 2), total - 1, total]) {
      failNth('rename', n);
      const error = await failure(forced().cd(project));
      vi.restoreAllMocks();
      expect(error.message, `move #${n}`).toMatch(
        new RegExp(`EIO: injected failure of rename #${n}\\); nothing was written, the project was left as it was`),
      );
      expect(tree(cwd), `move #${n}`).toEqual(before);
    }
  });

  it('writing a staged file fails: nothing of the project was touched', async () => {
    const { cwd } = await projectWithChanges();
    const before = tree(cwd);
    failNth('writeFile', 3);
    await expect(forced().cd(join(cwd, 'nowak-sync'))).rejects.toThrow(
      /injected failure of writeFile #3\); nothing was written, the project was left as it was/,
    );
    expect(tree(cwd)).toEqual(before);
  });

  it('a new project: built beside its place and moved in with one rename; a failure leaves no directory and no staging', async () => {
    const cwd = tempDir();
    failNth('rename', 1);
    await expect(runGenerator({ ...ALL_FLAGS }).cd(cwd)).rejects.toThrow(
      new RegExp(
        `moving the new project into ${join(cwd, 'nowak-sync')} failed .*nothing was written, ${join(cwd, 'nowak-sync')} was not created`,
      ),
    );
    expect(tree(cwd)).toEqual({});
    vi.restoreAllMocks();
    const rename = failNth('rename', 0);
    await runGenerator({ ...ALL_FLAGS })
      .withArguments(['deep/er/shop'])
      .cd(cwd);
    expect(rename.calls()).toBe(1);
    expect(Object.keys(tree(cwd)).filter((p) => !p.startsWith('deep/'))).toEqual(['deep']);
    expect(existsSync(join(cwd, 'deep/er/shop/.yo-rc.json'))).toBe(true);
  });

  it('when putting things back fails too, the error says so and where the replaced versions are kept', () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'old a\n');
    writeFileSync(join(root, 'b.txt'), 'old b\n');
    let moves = 0;
    const io = {
      ...commitIo,
      rename: (from: string, to: string) => {
        moves += 1;
        // The journal in place (1), a.txt moved aside (2), the new a.txt in (3), b.txt aside fails (4), and so does moving a.txt back (5).
        if (moves >= 4) throw new Error(`EIO #${moves}`);
        commitIo.rename(from, to);
      },
    };
    let caught: unknown;
    try {
      commitChanges(
        root,
        [
          { path: 'a.txt', contents: Buffer.from('new a\n') },
          { path: 'b.txt', contents: Buffer.from('new b\n') },
        ],
        io,
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CommitError);
    const error = caught as CommitError;
    expect(error.restored).toBe(false);
    expect(error.message).toMatch(
      /^writing b\.txt failed \(EIO #4\), and putting the project back failed too \(EIO #5\): the versions it replaced are kept under .*\.repair-service-staging-.*\/old with their paths/,
    );
    const staging = readdirSync(root).find((n) => n.startsWith(STAGING_PREFIX));
    expect(readFileSync(join(root, staging!, 'old', 'a.txt'), 'utf8')).toBe('old a\n');
  });
});

describe('a conflict with no terminal', { timeout: 60_000 }, () => {
  // Fixed by the upgrade plan (yeoman never asks); kept so "User force closed the prompt" stays gone.
  it('an edited toolkit file and edited files of theirs: exit 2 with the list, nothing written, never a prompt', async () => {
    const cwd = tempDir();
    const made = await repairmon(['new', 'shop', '--yes', '--skip-install'], cwd);
    expect(made.code, made.stderr).toBe(0);
    const project = join(cwd, 'shop');
    writeFileSync(join(project, 'src/repair-service/client/index.ts'), '// patched locally\n', { flag: 'a' });
    writeFileSync(join(project, 'README.md'), '# mine\n');
    rmSync(join(project, 'src/index.ts'));
    const before = tree(cwd);
    for (const args of [
      ['new', 'shop', '--skip-install'],
      ['upgrade', 'shop', '--skip-install'],
    ]) {
      const again = await repairmon(args, cwd);
      expect(again.code, args.join(' ')).toBe(2);
      expect(again.stderr).toContain('  src/repair-service/client/index.ts  (edited: differs from the recorded hash)');
      expect(again.stderr).toContain('Nothing was written.');
      expect(again.stdout + again.stderr).not.toMatch(/force closed|\? Overwrite/);
      expect(tree(cwd)).toEqual(before);
    }
  });
});

describe('control characters in a base URL', () => {
  const CONTROLS: ReadonlyArray<readonly [string, string]> = [
    ['LF', '\n'],
    ['CR', '\r'],
    ['TAB', '\t'],
    ['NUL', '\u0000'],
    ['ESC', '\u001b'],
    ['DEL', '\u007f'],
    ['NEL (C1)', '\u0085'],
  ];
  for (const [label, char] of CONTROLS) {
    it(`${label} inside --test-base-url is refused naming the flag, nothing written`, async () => {
      const cwd = tempDir();
      const url = `http://127.0.0.1:4010/api/v1${char}NODE_OPTIONS=--require=/tmp/evil.js${char}/api/v1`;
      const error = await failure(runGenerator({ ...ALL_FLAGS, 'test-base-url': url }).cd(cwd));
      expect(error.message).toMatch(/--test-base-url must not contain control characters \(U\+00[0-9A-F]{2} at position 29\)/);
      expect(tree(cwd)).toEqual({});
    });
  }

  it('a line break inside --production-base-url too', async () => {
    const cwd = tempDir();
    const error = await failure(
      runGenerator({ ...ALL_FLAGS, 'production-base-url': 'https://api.nowak.example/api/v1\r\nX=1\r\n/api/v1' }).cd(cwd),
    );
    expect(error.message).toContain('--production-base-url must not contain control characters (U+000D at position 33)');
    expect(tree(cwd)).toEqual({});
  });

  it('a line break in a stored answer (a hand-edited .yo-rc.json) is refused on the re-run', async () => {
    const { cwd, project } = await generated();
    const rc = JSON.parse(readFileSync(join(project, '.yo-rc.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    rc['generator-repair-service']!['testBaseUrl'] = 'http://127.0.0.1:4010/api/v1\nNODE_OPTIONS=x\n/api/v1';
    writeFileSync(join(project, '.yo-rc.json'), JSON.stringify(rc, null, 2));
    rmSync(join(project, '.env.example'));
    const before = tree(cwd);
    await expect(runGenerator({}).cd(project)).rejects.toThrow(/--test-base-url\) must not contain control characters/);
    expect(tree(cwd)).toEqual(before);
  });
});

describe('a re-run with other answers', () => {
  it('another tenant or base URL: refused naming the flag and both values, nothing written; the same ones, or a yes/no answer, go through', async () => {
    const { cwd, project } = await generated();
    const before = tree(cwd);
    const refusal =
      /This project was generated with other answers; nothing was written:\n {2}--tenant "serwis-kowalski": this project has "rowery-nowak"\n {2}--test-base-url "http:\/\/127\.0\.0\.1:4011\/api\/v1": this project has "http:\/\/127\.0\.0\.1:4010\/api\/v1"\n/;
    await expect(runGenerator({ tenant: 'serwis-kowalski', 'test-base-url': 'http://127.0.0.1:4011/api/v1' }).cd(project)).rejects.toThrow(
      refusal,
    );
    expect(tree(cwd)).toEqual(before);
    // The stored values again (a trailing slash is the same URL), and a yes/no answer changed.
    await runGenerator({ tenant: 'rowery-nowak', 'test-base-url': 'http://127.0.0.1:4010/api/v1/', 'github-actions': false }).cd(project);
    expect(readFileSync(join(project, '.yo-rc.json'), 'utf8')).toContain('"githubActions": false');
  });
});

describe('no answer can add a line to a rendered file (defence in depth, past the answer checks)', () => {
  const answers: Answers = SAMPLE_ANSWERS;
  const versions = readVersions(ROOT);
  const envExample = readFileSync(join(ROOT, 'templates/app/env.example.hbs'), 'utf8');

  it('the template context refuses an answer holding a line break, naming it', () => {
    expect(() => templateContext({ ...answers, testBaseUrl: 'http://127.0.0.1:4010/api/v1\nNODE_OPTIONS=x\n/api/v1' }, versions)).toThrow(
      /answer testBaseUrl contains a control character/,
    );
  });

  it('.env.example: a value with a line break is refused even if it reaches the template', () => {
    const context = { ...templateContext(answers, versions), tenant: 'rowery-nowak\nNODE_OPTIONS=--require=/tmp/evil.js' };
    expect(() => renderTemplate(envExample, context, 'env.example.hbs')).toThrow(
      /RS_TENANT contains a control character \(U\+000A at position 13\)/,
    );
  });

  it('.env.example: a tenant Node would cut at "#" is quoted, and reads back whole', async () => {
    const { parseEnv } = (await import('node:util')) as unknown as { parseEnv: (text: string) => Record<string, string> };
    const text = renderTemplate(envExample, templateContext({ ...answers, tenant: 'sklep #1' }, versions), 'env.example.hbs');
    expect(text).toContain("RS_TENANT='sklep #1'\n");
    expect(parseEnv(text)['RS_TENANT']).toBe('sklep #1');
    expect(envFileValue(`it's #1`, 'V')).toBe(`"it's #1"`);
    expect(() => envFileValue(`it's "x"`, 'V')).toThrow(/V contains ' together with/);
    expect(() => envFileValue('a\u2028b', 'V')).toThrow(/V contains a control character \(U\+2028/);
  });

  it("cd: plain words stay, everything else is one single-quoted word (the checklist's shellQuote); a leading dash is not an option", () => {
    expect(cdArgument('shop-api')).toBe('shop-api');
    expect(cdArgument('../a/b')).toBe('../a/b');
    expect(cdArgument("it's here; rm -rf ~")).toBe(`'it'\\''s here; rm -rf ~'`);
    expect(cdArgument('$(touch x)')).toBe(`'$(touch x)'`);
    expect(cdArgument('a\nb')).toBe(`'a\nb'`);
    expect(cdArgument('-rf')).toBe('./-rf');
    expect(cdArgument('')).toBe(`''`);
  });
});

describe('the printed next steps', { timeout: 60_000 }, () => {
  it('cd is shell-quoted: a directory with a quote, a space and a semicolon is one word', async () => {
    const cwd = tempDir();
    const dir = "it's here; touch pwned";
    const result = await repairmon(['new', dir, '--name', 'shop', '--yes', '--skip-install'], cwd);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).toContain(`  cd 'it'\\''s here; touch pwned'\n`);
    expect(existsSync(join(cwd, dir, 'src/config.ts'))).toBe(true);
  });
});
