/**
 * What a run says about its plan: the refusal with the files it will not touch, and the
 * summary of what changed. Pure text, so the exact wording is tested without running yeoman.
 */
import { shellQuote } from '../../api/checklist/index.js';
import { type Answers, PLACEHOLDER_PRODUCTION_BASE_URL, SANDBOX_BASE_URL } from './answers.js';
import type { PackageChange } from './package-merge.js';
import {
  type EditedFile,
  type FileAction,
  type KeptWhy,
  type ReadyPlan,
  type UpgradePlan,
  changingActions,
} from './upgrade-plan.js';

type Refused = Extract<UpgradePlan, { kind: 'refused' }>;

export function refusalMessage(plan: Refused, command: string): string {
  const lines: string[] = [];
  if (plan.stray.length > 0) {
    lines.push(
      `.yo-rc.json records these as toolkit files, but they are outside the toolkit folder; a run only ever replaces or removes files inside it (${plan.stray.length}):`,
      ...plan.stray.map((path) => `  ${path}`),
      'Nothing was written, and --force does not change that. Remove them from "toolkit" in .yo-rc.json (`git log -p .yo-rc.json` shows who added them), then run again.',
    );
  }
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
  const what =
    file.why === 'edited'
      ? 'edited: differs from the recorded hash'
      : 'no recorded hash (generated before upgrades recorded them) and not what this version ships';
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
    case 'override_added':
      return `added overrides ${change.name} ${change.range}`;
    case 'engine_raised':
      return `engines.node ${change.from ?? '(none)'} -> ${change.to}`;
  }
}

const KEPT: Readonly<Record<KeptWhy, { readonly count: string; readonly line: string }>> = {
  edited: { count: 'kept because edited', line: 'edited since it was generated' },
  template_changed: {
    count: 'kept unedited',
    line: 'not edited, but this version renders it differently; yours, so left as it is: delete it and run again to take the new one',
  },
  unrecorded: {
    count: 'kept (no record of what was generated)',
    line: 'differs from what this version renders; an older toolkit recorded no hash of it, so it may hold your edits: left as it is',
  },
};

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
      return `  kept       ${action.path} (${KEPT[action.why].line})`;
    case 'unchanged':
      return `  unchanged  ${action.path}`;
  }
}

/** Each `.orig` the run leaves, and what to do with it. */
function backupLines(plan: ReadyPlan): string[] {
  const left = plan.actions.flatMap((a) =>
    'backup' in a && a.backup ? [{ action: a, orig: a.backup.path }] : [],
  );
  if (left.length === 0) return [];
  return [
    `Your edited versions, kept beside the toolkit's (${left.length}): move what you still need into your own code, outside ${plan.record.dir}/, then delete each:`,
    ...left.map(({ action, orig }) =>
      action.kind === 'remove'
        ? `  ${orig}  (this version no longer ships ${action.path})`
        : `  ${orig}  (compare: diff ${orig} ${action.path})`,
    ),
  ];
}

/**
 * Every change one per line, then every file of the integrator left although it differs from
 * this version's render (with why), the unchanged ones counted, each `.orig` left named.
 */
export function planSummary(plan: ReadyPlan, installSkipped = false): string {
  const count = (kind: FileAction['kind']) => plan.actions.filter((a) => a.kind === kind).length;
  const kept = plan.actions.filter((a) => a.kind === 'kept');
  const keptCounts = (Object.keys(KEPT) as KeptWhy[]).flatMap((why) => {
    const n = kept.filter((a) => a.why === why).length;
    return n > 0 ? [`${n} ${KEPT[why].count}`] : [];
  });
  const counts = [
    `${count('add')} added`,
    `${count('update')} updated`,
    `${count('remove')} removed`,
    `${count('unchanged')} unchanged`,
    ...keptCounts,
  ];
  const packageChanged = plan.actions.some(
    (a) => a.path === 'package.json' && (a.kind === 'add' || a.kind === 'update'),
  );
  return [
    `Toolkit ${plan.from?.version ?? 'none recorded'} -> ${plan.record.version} (toolkit code in ${plan.record.dir}/):`,
    `  ${counts.join(', ')}`,
    ...changingActions(plan).map(actionLine),
    ...kept.map(actionLine),
    ...backupLines(plan),
    ...(packageChanged && installSkipped
      ? ['package.json changed and --skip-install was given: run npm install.']
      : []),
  ].join('\n');
}

/** `dir` as one word for `cd`: as it is when plain, else quoted; `./` before a leading dash, which `cd` would read as an option. */
export function cdArgument(dir: string): string {
  const safe = dir.startsWith('-') ? `./${dir}` : dir;
  return /^[A-Za-z0-9_./+:@%=,-]+$/.test(safe) ? safe : shellQuote(safe);
}

/** What a new project's integrator does next; `dir` relative to where they ran the generator. */
export function nextSteps(answers: Answers, dir: string, skipInstall: boolean): string {
  const p = answers.envPrefix;
  return [
    '',
    `Generated ${answers.packageName} in ${dir}. Next:`,
    `  cd ${cdArgument(dir)}`,
    ...(skipInstall
      ? ['  npm install           # also writes package-lock.json: commit it (CI runs npm ci)']
      : []),
    '  npm test',
    ...(answers.testBaseUrl === SANDBOX_BASE_URL
      ? [`  repairmon sandbox      # in another terminal: the local API at ${SANDBOX_BASE_URL}`]
      : []),
    `  cp .env.example .env   # then set ${p}_TEST_KEY in .env (the sandbox prints one)`,
    '  npm run check          # validates the test key before you switch to production',
    ...(answers.productionBaseUrl === PLACEHOLDER_PRODUCTION_BASE_URL
      ? [
          `Production base URL: not given; set ${p}_PRODUCTION_BASE_URL before switching (the placeholder is refused).`,
        ]
      : []),
    '',
  ].join('\n');
}
