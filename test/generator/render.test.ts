import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Answers } from '../../generators/app/answers.js';
import { parse } from 'yaml';
import { NODE_LINES, codeSpan, renderProject, renderTemplate, templateContext, versionsFrom } from '../../generators/app/render.js';
import { SAMPLE_ANSWERS } from './sample-answers.js';

const answers: Answers = SAMPLE_ANSWERS;
const versions = versionsFrom({
  dependencies: { undici: '^7', 'p-retry': '^7' },
  devDependencies: { typescript: '~5', vitest: '^4', '@types/node': '^20', msw: '2.15.0', '@stoplight/prism-cli': '5.14.2' },
  engines: { node: '>=20' },
});
const context = templateContext(answers, versions);
let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('renderTemplate', () => {
  it('does not HTML-escape, and the json helper indents nested lines', () => {
    expect(renderTemplate('{{testBaseUrl}} <&>', context, 't')).toBe('http://127.0.0.1:4010/api/v1 <&>');
    expect(renderTemplate('  "d": {{json versions.dependencies indent=2}}', context, 't')).toBe(
      '  "d": {\n    "undici": "^7",\n    "p-retry": "^7"\n  }',
    );
  });

  it('is strict: an unknown variable names the template', () => {
    expect(() => renderTemplate('{{nope}}', context, 'src/x.ts.hbs')).toThrow(/template src\/x\.ts\.hbs: .*nope/);
  });

  it('writes GitHub Actions expressions through a helper', () => {
    expect(renderTemplate('{{actionsExpr "secrets." env.testKey}}', context, 't')).toBe('${{ secrets.RS_TEST_KEY }}');
  });
});

describe('renderProject', () => {
  it('renders .hbs, copies the rest byte for byte, renames dotfiles, drops the workflow unless asked', () => {
    root = mkdtempSync(join(tmpdir(), 'render-'));
    mkdirSync(join(root, '.github', 'workflows'), { recursive: true });
    writeFileSync(join(root, 'gitignore'), 'node_modules/\n');
    writeFileSync(join(root, 'env.example.hbs'), '{{env.testKey}}=\n');
    writeFileSync(join(root, 'raw.ts'), Buffer.from([0x7b, 0x7b, 0x78, 0x7d, 0x7d, 0xff]));
    writeFileSync(join(root, '.github', 'workflows', 'ci.yml.hbs'), 'x');
    const files = renderProject(root, context);
    expect(files.map((f) => f.path)).toEqual(['.env.example', '.gitignore', 'raw.ts']);
    expect(files[0]?.contents.toString()).toBe('RS_TEST_KEY=\n');
    expect(files[2]?.contents).toEqual(Buffer.from([0x7b, 0x7b, 0x78, 0x7d, 0x7d, 0xff]));
    expect(renderProject(root, templateContext({ ...answers, githubActions: true }, versions)).map((f) => f.path)).toContain(
      '.github/workflows/ci.yml',
    );
  });
});

describe('the project templates, by what the toolkit and the answers say', () => {
  const templates = join(import.meta.dirname, '../../templates/app');
  const file = (files: ReturnType<typeof renderProject>, path: string): string =>
    files.find((f) => f.path === path)?.contents.toString() ?? '';
  const facts = (toolkitDir = 'src/repair-service') => ({ toolkitDir });

  it("the client trusts the project's CA itself (no Agent of ours); the README points at the client's own", () => {
    const project = renderProject(templates, templateContext(answers, versions, facts()));
    expect(file(project, 'src/index.ts')).toContain('...(config.ca === undefined ? {} : { ca: config.ca }),');
    expect(file(project, 'src/index.ts')).not.toContain("from 'undici'");
    expect(file(project, 'README.md')).toContain('[`src/repair-service/client/README.md`](src/repair-service/client/README.md)');
    // The sandbox prints the default prefix; a project with another is told which of its own variables to use.
    expect(file(project, 'README.md')).toContain(
      "`export REPAIR_API_TEST_KEY=...` lines (the generator's default prefix; this project\n  reads `RS_TEST_KEY`",
    );
  });

  it('the placeholder production URL is no default; a given one is; the local sandbox gets no CI default', () => {
    const placeholder = renderProject(
      templates,
      templateContext(
        { ...answers, productionBaseUrl: 'https://api.repair-service.example/api/v1', githubActions: true },
        versions,
        facts(),
      ),
    );
    expect(file(placeholder, 'src/config.ts')).toContain('production: { baseUrl: undefined },');
    expect(file(placeholder, '.env.example')).toContain('# RS_PRODUCTION_BASE_URL=');
    expect(file(placeholder, '.github/workflows/ci.yml')).toContain('TEST_BASE_URL: ${{ vars.RS_TEST_BASE_URL }}');
    const given = renderProject(
      templates,
      templateContext({ ...answers, testBaseUrl: 'https://test.shop.example/api/v1', githubActions: true }, versions, facts()),
    );
    expect(file(given, 'src/config.ts')).toContain('production: { baseUrl: "https://a.example/api/v1" },');
    expect(file(given, '.github/workflows/ci.yml')).toContain(
      "TEST_BASE_URL: ${{ vars.RS_TEST_BASE_URL || 'https://test.shop.example/api/v1' }}",
    );
  });

  it('the CI workflow tests every Node line in support, and no other (no end-of-life line)', () => {
    const workflow = parse(
      file(renderProject(templates, templateContext({ ...answers, githubActions: true }, versions, facts())), '.github/workflows/ci.yml'),
    ) as {
      jobs: { test: { strategy: { matrix: { node: unknown } }; steps: { uses?: string; with?: Record<string, unknown> }[] } };
    };
    expect(workflow.jobs.test.strategy.matrix.node).toEqual([22, 24, 26]);
    expect(NODE_LINES).toEqual([22, 24, 26]);
    const setup = workflow.jobs.test.steps.find((step) => step.uses?.startsWith('actions/setup-node'));
    expect(setup?.with?.['node-version']).toBe('${{ matrix.node }}');
  });

  it('a tenant name lands safely wherever it is written: JSON, TypeScript, Markdown, .env', () => {
    const tenant = 'Acme "Shop" | `x` 100% ..\\ łódź';
    const project = renderProject(templates, templateContext({ ...answers, tenant }, versions, facts()));
    const pkg = JSON.parse(file(project, 'package.json')) as { description: string };
    expect(pkg.description).toBe(`Integration with the Repair-Service API v1 for tenant ${tenant}`);
    expect(file(project, 'src/config.ts')).toContain(`tenant: ${JSON.stringify(tenant)},`);
    expect(file(project, 'README.md')).toContain(`for tenant ${codeSpan(tenant)}, generated by`);
    expect(file(project, 'README.md')).toContain(`| ${codeSpan(tenant, true)} |`);
    expect(file(project, '.env.example')).toContain(`RS_TENANT='${tenant}'`);
  });

  it('.env.example: a tenant no quoting keeps literal for Node and a shell is a comment, not a line either would cut', () => {
    for (const tenant of [`it's "a" \`b\``, "it's $HOME"]) {
      const project = renderProject(templates, templateContext({ ...answers, tenant }, versions, facts()));
      expect(file(project, '.env.example')).toContain(
        '# RS_TENANT: the default in src/config.ts (its value holds quotes no .env line keeps literal)',
      );
      expect(file(project, 'src/config.ts')).toContain(`tenant: ${JSON.stringify(tenant)},`);
    }
    const tenant = 'a plain $HOME';
    const project = renderProject(templates, templateContext({ ...answers, tenant }, versions, facts()));
    expect(file(project, '.env.example')).toContain(`RS_TENANT='a plain $HOME'`);
    expect(file(project, 'src/config.ts')).toContain(`tenant: ${JSON.stringify(tenant)},`);
  });

  it('a code span holds any text: a longer fence than any backtick run, padding CommonMark strips again', () => {
    expect(codeSpan('rowery-nowak')).toBe('`rowery-nowak`');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`a')).toBe('`` `a ``');
    expect(codeSpan(' a ')).toBe('`  a  `');
    expect(codeSpan('   ')).toBe('`   `');
    expect(codeSpan('a|b')).toBe('`a|b`');
    expect(codeSpan('a|b', true)).toBe('`a\\|b`');
  });

  it('a project keeping the toolkit in src/ gets templates importing from there', () => {
    const legacy = renderProject(templates, templateContext(answers, versions, facts('src')));
    expect(file(legacy, 'src/check.ts')).toContain("from './checklist/index.js'");
    expect(file(legacy, 'test/handlers.test.ts')).toContain("from '../src/client/index.js'");
    expect(legacy.some((f) => f.path.endsWith('.ts') && f.contents.toString().includes('repair-service/'))).toBe(false);
  });
});
