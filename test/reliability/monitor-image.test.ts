/**
 * The monitor image installs deploy/monitor-image/package.json, not the root one (whose
 * production dependencies carry the generator: yeoman-generator, handlebars and ~180 more).
 * Statically: every package the monitor's code imports is in that manifest at the root's range,
 * no generator package is, its lockfile pins the root lockfile's versions, DEPENDENCIES.md is
 * current. Then for real: the compiled CLI in a temp dir shaped like the image (dist/, bin/,
 * package.json, and a node_modules holding only the manifest's packages) runs the sandbox,
 * check-config on the Kubernetes config and serve through a round of probes; `repairmon new`
 * there says the generator is not included, in one line.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/commands/index.js';
import { GENERATOR_COMMANDS, GENERATOR_PACKAGES, importGraph } from '../../deploy/monitor-image/import-graph.mjs';
import { dependenciesMarkdown, installedPackages, monitorManifest } from '../../deploy/monitor-image/manifest.mjs';
import { ROOT, type Watched, ensureBuilt, runCli, spawnCli, startSandboxProcess, waitFor, waitForOutput } from '../helpers/rig.js';

type Manifest = { name: string; version: string; dependencies: Record<string, string>; peerDependencies?: Record<string, string> };
type Lock = { packages: Record<string, { version?: string; dev?: boolean; dependencies?: Record<string, string> }> };

const IMAGE_DIR = `${ROOT}/deploy/monitor-image/`;
const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const rootPkg = readJson<Manifest>(`${ROOT}/package.json`);
const rootLock = readJson<Lock>(`${ROOT}/package-lock.json`);
const imagePkg = readJson<Manifest>(`${IMAGE_DIR}package.json`);
const imageLock = readJson<Lock>(`${IMAGE_DIR}package-lock.json`);
const REGENERATE = 'run `node deploy/monitor-image/generate.mjs`';

/** Packages the generator pulls in that must not be in the image, beyond the generator's own. */
const GENERATOR_TREE = [...GENERATOR_PACKAGES, '@npmcli/arborist', 'node-gyp', 'inquirer', 'ejs'];

describe('the monitor image manifest (deploy/monitor-image/)', () => {
  const graph = importGraph(ROOT);

  it('lists every package the monitor loads, at the root package.json range', () => {
    for (const [name, importer] of graph.packages) {
      expect(imagePkg.dependencies[name], `${name}, imported by ${importer}: ${REGENERATE}`).toBe(
        rootPkg.dependencies[name] ?? rootPkg.peerDependencies?.[name],
      );
    }
    expect(imagePkg, REGENERATE).toEqual(monitorManifest(rootPkg, graph.packages.keys()));
  });

  it('leaves the generator out: not imported by the monitor, not in the manifest or the lockfile', () => {
    const installed = installedPackages(imageLock);
    for (const name of GENERATOR_TREE) {
      expect(graph.packages.get(name), `${name} is imported by the monitor's code`).toBeUndefined();
      expect(imagePkg.dependencies[name], name).toBeUndefined();
      expect(installed.has(name), `${name} in the image's lockfile`).toBe(false);
    }
  });

  it('loads no generator package when serve or check-config is imported (only `new` and `upgrade` do, lazily)', () => {
    const eager = importGraph(ROOT, {
      entries: ['cli/index.ts', 'cli/commands/serve.ts', 'cli/commands/check-config.ts'],
      stopAt: [],
      dynamic: false,
    });
    for (const name of GENERATOR_PACKAGES) expect(eager.packages.get(name), name).toBeUndefined();
  });

  it('names, in `new` and `upgrade`, every package they load that the image lacks, so the CLI can say so', () => {
    const generator = importGraph(ROOT, { entries: GENERATOR_COMMANDS, stopAt: [] });
    const lacking = [...generator.packages.keys()].filter((name) => imagePkg.dependencies[name] === undefined);
    expect(lacking.length).toBeGreaterThan(0);
    for (const command of ['new', 'upgrade']) {
      const entry = COMMANDS.find((c) => c.name === command)!;
      for (const name of lacking) expect(entry.needs, `${command} needs ${name}`).toContain(name);
    }
  });

  it("has a lockfile for this manifest whose every version is the root lockfile's", () => {
    expect(imageLock.packages['']?.dependencies, REGENERATE).toEqual(imagePkg.dependencies);
    // Dev entries count: the OpenTelemetry packages are optional peers, in the root lock as dev ones.
    const root = installedPackages({
      packages: Object.fromEntries(Object.entries(rootLock.packages).map(([p, e]) => [p, { ...e, dev: false }])),
    });
    for (const [name, versions] of installedPackages(imageLock)) {
      for (const version of versions) expect(root.get(name), `${name}@${version}: ${REGENERATE}`).toContain(version);
    }
  });

  it('records the package lists and counts in DEPENDENCIES.md', () => {
    const text = readFileSync(`${IMAGE_DIR}DEPENDENCIES.md`, 'utf8');
    expect(text, REGENERATE).toBe(dependenciesMarkdown(rootLock, imageLock));
  });
});

describe('the CLI in a directory shaped like the monitor image', () => {
  const app = mkdtempSync(join(tmpdir(), 'monitor-image-'));
  const children: Watched[] = [];

  beforeAll(() => {
    ensureBuilt();
    // Copies, not links: Node resolves a module's imports from its real path, and the checkout's
    // node_modules has everything. Only the manifest's packages are linked in; their own
    // dependencies come from the checkout (the lockfile test above covers those).
    cpSync(`${ROOT}/dist`, `${app}/dist`, { recursive: true, filter: (src) => !src.endsWith('.map') });
    cpSync(`${ROOT}/bin`, `${app}/bin`, { recursive: true });
    cpSync(`${ROOT}/package.json`, `${app}/package.json`);
    for (const name of Object.keys(imagePkg.dependencies)) {
      mkdirSync(dirname(`${app}/node_modules/${name}`), { recursive: true });
      symlinkSync(`${ROOT}/node_modules/${name}`, `${app}/node_modules/${name}`);
    }
  });
  afterAll(() => {
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(app, { recursive: true, force: true });
  });

  const image = { bin: join(app, 'bin', 'repairmon.js'), cwd: app };
  const repairmon = (args: string[], env: Record<string, string> = {}) => runCli(args, { ...image, env, timeoutMs: 15_000 });

  it('check-config accepts the Kubernetes config (what the image runs with)', async () => {
    const docs = parseAllDocuments(readFileSync(`${ROOT}/deploy/kubernetes/configmap.yaml`, 'utf8')).map(
      (d) => d.toJS() as { data?: Record<string, string> },
    );
    const config = join(app, 'monitor.yaml');
    writeFileSync(config, docs.find((d) => d.data?.['monitor.yaml'])!.data!['monitor.yaml']!);
    const variables = [...readFileSync(config, 'utf8').matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]!);
    const result = await repairmon(
      ['check-config', '--config', config],
      Object.fromEntries(variables.map((v) => [v, `placeholder-${v.toLowerCase()}-0123456789`])),
    );
    expect(result.stderr).not.toMatch(/Cannot find|ERR_MODULE_NOT_FOUND/);
    expect(result.code, result.stderr).toBe(0);
  });

  it('serve runs a round of probes against the sandbox, both from the image', async () => {
    const sandbox = await startSandboxProcess([], image);
    children.push(sandbox.process);
    const { baseUrl } = sandbox;
    const key = sandbox.key('kowalski-test');
    const config = join(app, 'sandbox.yaml');
    writeFileSync(
      config,
      [
        'targets:',
        '  - name: sandbox',
        `    baseUrl: ${baseUrl}`,
        '    schedule: "* * * * * *"',
        '    timeout: 800ms',
        '    keys:',
        `      - { alias: kowalski-test, kind: tenant, tenant: ${key.tenant}, secret: "\${KEY}" }`,
        '',
      ].join('\n'),
    );
    const serve = spawnCli(['serve', '--config', config, '--listen', '127.0.0.1:0', '--log-level', 'silent'], {
      ...image,
      env: { KEY: key.key },
    });
    children.push(serve);
    const url = (await waitForOutput(serve.stdout, /status (http:\/\/\S+)\//))[1];
    const metrics = await waitFor(
      async () => {
        const text = await (await fetch(`${url}/metrics`)).text();
        return /^repairmon_probe_success\{.*\} 1$/m.test(text) && text;
      },
      { what: 'a successful probe in /metrics', everyMs: 200 },
    );
    expect(metrics).toMatch(/^repairmon_probe_success\{.*\} 1$/m);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(await sandbox.close()).toBe(0);
  });

  it('`repairmon new` says the image has no generator, in one line, and writes nothing', async () => {
    const result = await repairmon(['new', 'my-integration', '--yes']);
    expect(result.stderr).toBe(
      'repairmon new: the monitor image does not include the generator; install generator-repair-service (cannot load handlebars)\n',
    );
    expect(result.code).toBe(2);
    expect(existsSync(join(app, 'my-integration'))).toBe(false);
  });
});
