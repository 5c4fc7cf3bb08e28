/**
 * The generator's one reading pass over a target directory: what `.yo-rc.json` recorded, where
 * the toolkit lives, what this version renders, and the current contents of every file that
 * matters; then the pure plan (upgrade-plan.ts). Reads only, never writes.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageVersion } from '../../lib/index.js';
import type { Answers } from './answers.js';
import { type ToolkitLayout, chooseLayout, inToolkit } from './layout.js';
import { readVersions, renderProject, templateContext } from './render.js';
import { toolkitFiles } from './shipped.js';
import { parseToolkitRecord, readStoredSection } from './toolkit-record.js';
import { type NextFile, type UpgradePlan, planUpgrade } from './upgrade-plan.js';

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** What this version writes into a project with this layout. */
export function nextFiles(
  packageRoot: string,
  answers: Answers,
  layout: ToolkitLayout,
): NextFile[] {
  const toolkit = toolkitFiles(packageRoot, layout.dir, answers);
  const facts = { toolkitDir: layout.dir };
  const rendered = renderProject(
    join(packageRoot, 'templates', 'app'),
    templateContext(answers, readVersions(packageRoot), facts),
  );
  return [
    ...rendered.map((f): NextFile => ({
      path: f.path,
      contents: f.contents,
      owner: f.path === 'package.json' ? 'package_json' : 'integrator',
    })),
    ...toolkit.map((f): NextFile => ({ path: f.path, contents: f.contents, owner: 'toolkit' })),
  ];
}

export function planProject(options: {
  packageRoot: string;
  target: string;
  answers: Answers;
  configKey: string;
  force: boolean;
}): UpgradePlan {
  const { packageRoot, target } = options;
  const recorded = parseToolkitRecord(readStoredSection(target, options.configKey));
  const exists = (path: string): boolean => existsSync(join(target, path));
  const layout = chooseLayout(recorded, exists);
  const next = nextFiles(packageRoot, options.answers, layout);
  const current = new Map<string, Buffer>();
  // Only the files this version renders and recorded ones inside the toolkit folder are read: the plan refuses the others unread.
  const recordedFiles = Object.keys(recorded?.files ?? {}).filter(
    (path) => recorded !== undefined && inToolkit(path, recorded.dir),
  );
  for (const path of new Set([...next.map((f) => f.path), ...recordedFiles])) {
    const full = join(target, path);
    if (isFile(full)) current.set(path, readFileSync(full));
  }
  return planUpgrade({
    recorded,
    version: packageVersion(packageRoot),
    dir: layout.dir,
    next,
    current,
    exists,
    force: options.force,
  });
}
