/**
 * What a run says about its plan: the refusal with the files it will not overwrite, and the
 * summary of what changed. Pure text, so the exact wording is tested without running yeoman.
 */
import { type Answers, PLACEHOLDER_PRODUCTION_BASE_URL, SANDBOX_BASE_URL } from './answers.js';
import type { PackageChange } from './package-merge.js';
import { shellQuote } from './shell-quote.js';
import type { EditedFile, FileAction, UpgradePlan } from './upgrade-plan.js';

type Ready = Extract<UpgradePlan, { kind: 'ready' }>;
type Refused = Extract<UpgradePlan, { kind: 'refused' }>;

export function refusalMessage(plan: Refused, command: string): string {
  const lines: string[] = [];
  if (plan.packageJson !== undefined) lines.push(plan.packageJson);
  if (plan.edited.length > 0) {
    lines.push(
      'These toolkit-owned files were changed in this project since the toolkit wrote them, and would be overwritten:',
      ...plan.edited.map((f) => `  ${f.path}  (${describeEdit(f)})`),
      'Nothing was written. Move your changes out of the toolkit folder (into your own files), or run again with',
      `--force (${command} --force): each file above is replaced and your version kept beside it as <file>.orig.`,
    );
  }
  return lines.join('\n');
}

function describeEdit(file: EditedFile): string {
  const what = file.why === 'edited' ? 'edited: differs from the recorded hash' : 'no recorded hash (generated before upgrades recorded them) and not what this version ships';
  return file.removal ? `${what}; this version no longer ships it, it would be removed` : what;
}

function packageChangeLine(change: PackageChange): string | undefined {
  switch (change.kind) {
    case 'dependency_added':
      return `added ${change.section} ${change.name} ${change.range}`;
    case 'dependency_raised':
      return `raised ${change.name} ${change.from} -> ${change.to}`;
    case 'dependency_kept':
      return `kept your ${change.name} ${change.theirs} (${change.why === 'theirs_newer' ? 'newer than' : 'not comparable with'} our ${change.ours})`;
    case 'script_added':
      return `added script "${change.name}"`;
    case 'engine_raised':
      return `engines.node ${change.from ?? '(none)'} -> ${change.to}`;
  }
}

function actionLine(action: FileAction): string {
  switch (action.kind) {
    case 'add':
      return `  added      ${action.path}${action.restored ? ' (was deleted)' : ''}`;
    case 'update': {
      const backup = action.backup ? ` (your edited version kept as ${action.backup.path})` : '';
      const changes = (action.changes ?? []).map(packageChangeLine).filter((l) => l !== undefined);
      return `  updated    ${action.path}${backup}${changes.length > 0 ? `: ${changes.join('; ')}` : ''}`;
    }
    case 'remove':
      return `  removed    ${action.path}${action.backup ? ` (your edited version kept as ${action.backup.path})` : ''}`;
    case 'kept':
      return `  kept       ${action.path}`;
    case 'unchanged':
      return `  unchanged  ${action.path}`;
  }
}

/** Every change one per line; unchanged and kept files counted, with the kept ones named (they are the integrator's). */
export function planSummary(plan: Ready): string {
  const from = plan.from ? `${plan.from.version}` : 'none recorded';
  const count = (kind: FileAction['kind']) => plan.actions.filter((a) => a.kind === kind).length;
  const changed = plan.actions.filter((a) => a.kind === 'add' || a.kind === 'update' || a.kind === 'remove');
  const kept = plan.actions.filter((a) => a.kind === 'kept');
  const unchanged = count('unchanged');
  return [
    `Toolkit ${from} -> ${plan.record.version} (toolkit code in ${plan.record.dir}/):`,
    `  ${count('add')} added, ${count('update')} updated, ${count('remove')} removed, ${unchanged} unchanged, ${kept.length} kept as yours`,
    ...changed.map(actionLine),
    ...kept.map(actionLine),
    ...(unchanged > 0 ? [`  unchanged  ${unchanged} file(s)`] : []),
  ].join('\n');
}

/** What a new project's integrator does next; `dir` relative to where they ran the generator. */
export function nextSteps(answers: Answers, dir: string, skipInstall: boolean): string {
  const p = answers.envPrefix;
  return [
    '',
    `Generated ${answers.packageName} in ${dir}. Next:`,
    `  cd ${shellQuote(dir)}`,
    ...(skipInstall ? ['  npm install           # also writes package-lock.json: commit it (CI runs npm ci)'] : []),
    '  npm test',
    ...(answers.testBaseUrl === SANDBOX_BASE_URL ? [`  repairmon sandbox      # in another terminal: the local API at ${SANDBOX_BASE_URL}`] : []),
    `  cp .env.example .env   # then set ${p}_TEST_KEY in .env (the sandbox prints one)`,
    '  npm run check          # validates the test key before you switch to production',
    ...(answers.productionBaseUrl === PLACEHOLDER_PRODUCTION_BASE_URL ? [`Production base URL: not given; set ${p}_PRODUCTION_BASE_URL before switching (the placeholder is refused).`] : []),
    '',
  ].join('\n');
}
