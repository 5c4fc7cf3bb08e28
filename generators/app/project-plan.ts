/**
 * The generator's one reading pass over a target directory: what `.yo-rc.json` recorded, where
 * the toolkit lives, what this version renders, and the current contents of every file that
 * matters; then the pure plan (upgrade-plan.ts). Reads only, never writes.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Answers } from './answers.js';
import { clientFeatures } from './client-features.js';
import { readStoredSection } from './destination.js';
import { type ToolkitLayout, chooseLayout } from './layout.js';
import { templateRoot } from './paths.js';
import { renderProject, templateContext } from './render.js';
import { toolkitFiles } from './shipped.js';
import { type ToolkitRecord, parseToolkitRecord } from './toolkit-record.js';
import { type NextFile, type UpgradePlan, planUpgrade } from './upgrade-plan.js';
import { readToolkitVersion, readVersions } from './versions.js';

export interface ProjectPlan {
  readonly plan: UpgradePlan;
  readonly layout: ToolkitLayout;
  readonly version: string;
}

export function readRecord(dir: string, configKey: string): ToolkitRecord | undefined {
  return parseToolkitRecord(readStoredSection(dir, configKey));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** What this version writes into a project with this layout. */
export function nextFiles(packageRoot: string, answers: Answers, layout: ToolkitLayout, version: string): NextFile[] {
  const toolkit = toolkitFiles(packageRoot, layout.dir, version);
  const facts = { toolkitVersion: version, toolkitDir: layout.dir, client: clientFeatures(toolkit, layout.dir) };
  const rendered = renderProject(templateRoot(packageRoot), templateContext(answers, readVersions(packageRoot), facts));
  return [
    ...rendered.map((f): NextFile => ({ path: f.path, contents: f.contents, owner: f.path === 'package.json' ? 'package_json' : 'integrator' })),
    ...toolkit.map((f): NextFile => ({ path: f.path, contents: f.contents, owner: 'toolkit' })),
  ];
}

export function planProject(options: { packageRoot: string; target: string; answers: Answers; configKey: string; force: boolean }): ProjectPlan {
  const { packageRoot, target } = options;
  const recorded = readRecord(target, options.configKey);
  const exists = (path: string): boolean => existsSync(join(target, path));
  const layout = chooseLayout(recorded, exists);
  const version = readToolkitVersion(packageRoot);
  const next = nextFiles(packageRoot, options.answers, layout, version);
  const current = new Map<string, Buffer>();
  for (const path of new Set([...next.map((f) => f.path), ...Object.keys(recorded?.files ?? {})])) {
    const full = join(target, path);
    if (isFile(full)) current.set(path, readFileSync(full));
  }
  const plan = planUpgrade({ recorded, version, dir: layout.dir, next, current, exists, force: options.force });
  return { plan, layout, version };
}
