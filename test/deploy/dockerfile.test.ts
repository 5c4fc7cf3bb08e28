/**
 * The Dockerfile, checked statically (no Docker engine here): multi-stage, the runtime stage gets
 * production dependencies only, and only the monitor's (deploy/monitor-image/, not the root
 * manifest with the generator's), runs as a non-root user, health-checks /-/healthy on the
 * exposed port and starts `repairmon serve`; the build stage copies everything tsconfig compiles.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATOR_PACKAGES } from '../../deploy/monitor-image/import-graph.mjs';
import { installedPackages } from '../../deploy/monitor-image/manifest.mjs';
import { type DockerStage, dockerStages } from './helpers/manifests.js';
import { ROOT } from './helpers/paths.js';

const stages = dockerStages(readFileSync(`${ROOT}Dockerfile`, 'utf8'));
const runtime = stages.at(-1)!;
const dockerignore = readFileSync(`${ROOT}.dockerignore`, 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

function ops(stage: DockerStage, op: string): string[] {
  return stage.instructions.filter((i) => i.op === op).map((i) => i.args);
}

function stageNamed(name: string): DockerStage {
  const stage = stages.find((s) => s.name === name);
  if (!stage) throw new Error(`no stage ${name}`);
  return stage;
}

/** A .dockerignore pattern as a regex over a path and anything under it: `*` within one folder, `**` across. */
function patternRegex(pattern: string): RegExp {
  const parts = pattern.split('**').map((part) =>
    part
      .replace(/[.+^$()|[\]{}\\]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]'),
  );
  return new RegExp(`^${parts.join('.*')}(/.*)?$`);
}

/** Whether the build context leaves `path` out: the last pattern matching it decides; `!` brings it back. */
function ignored(path: string): boolean {
  let out = false;
  for (const line of dockerignore) {
    const negated = line.startsWith('!');
    if (patternRegex(negated ? line.slice(1) : line).test(path)) out = !negated;
  }
  return out;
}

describe('Dockerfile', () => {
  it('is multi-stage: a build stage with dev dependencies, a runtime stage without', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = stages.find((s) => ops(s, 'RUN').some((r) => r.includes('npm run build')))!;
    expect(build).toBeDefined();
    expect(ops(build, 'RUN').some((r) => /npm ci(?!.*--omit=dev)/.test(r))).toBe(true);
    expect(build).not.toBe(runtime);
  });

  it('gives the runtime stage production dependencies only', () => {
    const installs = ops(runtime, 'RUN').filter((r) => /npm (ci|install)/.test(r));
    for (const install of installs) expect(install).toContain('--omit=dev');
    const copies = ops(runtime, 'COPY').filter((c) => c.includes('node_modules'));
    expect(installs.length + copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const from = /--from=(\S+)/.exec(copy)?.[1] ?? '';
      const source = stageNamed(from);
      expect(
        ops(source, 'RUN').some((r) => /npm ci .*--omit=dev/.test(r)),
        `node_modules from stage ${from}`,
      ).toBe(true);
      expect(
        ops(source, 'RUN').some((r) => r.includes('npm run build')),
        `stage ${from} must not be the dev build`,
      ).toBe(false);
    }
  });

  it("installs the monitor's manifest and lockfile, without the generator's packages", () => {
    const copy = ops(runtime, 'COPY').find((c) => c.includes('node_modules'))!;
    const source = stageNamed(/--from=(\S+)/.exec(copy)?.[1] ?? '');
    const files = ops(source, 'COPY')
      .flatMap((c) => c.split(/\s+/).slice(0, -1))
      .filter((f) => !f.startsWith('--'));
    const manifest = files.find((f) => f.endsWith('package.json'))!;
    const lockfile = files.find((f) => f.endsWith('package-lock.json'))!;
    expect(dirname(lockfile)).toBe(dirname(manifest));
    for (const file of [manifest, lockfile]) expect(ignored(file), `${file} is left out of the build context by .dockerignore`).toBe(false);
    const dependencies = (JSON.parse(readFileSync(`${ROOT}${manifest}`, 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    const installed = installedPackages(JSON.parse(readFileSync(`${ROOT}${lockfile}`, 'utf8')) as Parameters<typeof installedPackages>[0]);
    for (const name of GENERATOR_PACKAGES) {
      expect(dependencies[name], `${manifest} depends on ${name}`).toBeUndefined();
      expect(installed.has(name), `${lockfile} installs ${name}`).toBe(false);
    }
    // The generator's files are no use without its packages.
    for (const dir of ['generators', 'templates']) expect(ops(runtime, 'COPY').join('\n')).not.toMatch(new RegExp(`/src/${dir}\\b`));
  });

  it('runs as a numeric non-root user, so Kubernetes runAsNonRoot can verify it', () => {
    const users = ops(runtime, 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!;
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(user.split(':')[0]).not.toBe('0');
  });

  it('exposes the listen port, health-checks /-/healthy on it and starts `repairmon serve`', () => {
    const [port] = ops(runtime, 'EXPOSE');
    expect(port).toMatch(/^\d+$/);
    const healthcheck = ops(runtime, 'HEALTHCHECK').join(' ');
    expect(healthcheck).toContain(`127.0.0.1:${port}/-/healthy`);
    expect(JSON.parse(ops(runtime, 'ENTRYPOINT').at(-1)!)).toEqual(['repairmon', 'serve']);
    expect(ops(runtime, 'CMD').at(-1)).toContain(`0.0.0.0:${port}`);
    expect(ops(runtime, 'RUN').join(' ')).toContain('/usr/local/bin/repairmon');
  });

  it('copies every folder tsconfig compiles into the build stage, and .dockerignore keeps them in', () => {
    const tsconfig = JSON.parse(readFileSync(`${ROOT}tsconfig.json`, 'utf8')) as { include: string[] };
    const build = stages.find((s) => ops(s, 'RUN').some((r) => r.includes('npm run build')))!;
    const copied = ops(build, 'COPY').map((c) => c.split(/\s+/)[0]!);
    for (const dir of tsconfig.include) {
      const top = dir.split('/')[0]!;
      expect(copied, dir).toContain(top);
      expect(dockerignore, dir).not.toContain(top);
    }
    for (const source of copied) expect(existsSync(`${ROOT}${source}`), source).toBe(true);
    // The benchmarks build on their own (bench/tsconfig.json) and are no part of the image.
    expect(copied).not.toContain('bench');
  });

  it('keeps keys, local state and the git history out of the build context', () => {
    for (const entry of ['.git', 'node_modules', 'dist', '.env', '.env.*', 'keys.env']) expect(dockerignore).toContain(entry);
    for (const path of ['.git/config', 'node_modules/yaml', '.env.local', 'keys.env', 'deploy/kubernetes/secret.yaml'])
      expect(ignored(path), path).toBe(true);
  });
});
