/**
 * What a run of the generator does to a project, as a pure function of the recorded hashes
 * (`.yo-rc.json`), the files on disk and the files this version renders. The generator only
 * carries the plan out; tests call this directly.
 *
 * - Toolkit-owned files (the toolkit folder) are replaced, unless the integrator edited one
 *   (its hash differs from the recorded one), or it has no record and differs from what we
 *   would write: then the plan is refused with the list, or with `force` the file is replaced
 *   and its edited contents kept beside it as `<file>.orig`. A recorded file this version no
 *   longer ships is removed under the same rule.
 * - A record naming anything outside the toolkit folder is refused, `force` or not: no run
 *   replaces or removes a file there (layout.ts).
 * - package.json is merged (package-merge.ts): ours added, never theirs removed.
 * - Everything else the templates render is the integrator's: written only when missing.
 */
import { strayRecordPaths } from './layout.js';
import { type PackageChange, mergePackageJson } from './package-merge.js';
import type { FileChange } from './staged-commit.js';
import { type ToolkitRecord, contentHash, withoutHeader } from './toolkit-record.js';

export type Owner = 'toolkit' | 'integrator' | 'package_json';

export interface NextFile {
  /** Project-relative POSIX path. */
  readonly path: string;
  readonly contents: Buffer;
  readonly owner: Owner;
}

export interface PlanInput {
  /** From `.yo-rc.json`; undefined for a new project or one generated before the record. */
  readonly recorded: ToolkitRecord | undefined;
  /** The version of generator-repair-service running now. */
  readonly version: string;
  /** The toolkit folder this run writes to (layout.ts). */
  readonly dir: string;
  readonly next: readonly NextFile[];
  /** Contents on disk of every path in `next` and in the record that exists. */
  readonly current: ReadonlyMap<string, Buffer>;
  /** Whether any other project path exists (to name `.orig` copies without clobbering). */
  readonly exists: (path: string) => boolean;
  readonly force: boolean;
}

/** An edited file's contents, saved beside it before `force` overwrites or removes it. */
export interface Backup {
  readonly path: string;
  readonly contents: Buffer;
}

/**
 * Why a file of the integrator that differs from this version's render is left as it is:
 * `edited` since the generator wrote it; `template_changed`: not edited, this version renders
 * it differently; `unrecorded`: no hash of what was written (a project from an older version).
 */
export type KeptWhy = 'edited' | 'template_changed' | 'unrecorded';

export type FileAction =
  | {
      readonly kind: 'add';
      readonly path: string;
      readonly owner: Owner;
      readonly contents: Buffer;
      readonly restored: boolean;
    }
  | {
      readonly kind: 'update';
      readonly path: string;
      readonly owner: Owner;
      readonly contents: Buffer;
      readonly backup?: Backup;
      readonly changes?: readonly PackageChange[];
    }
  | { readonly kind: 'unchanged'; readonly path: string; readonly owner: Owner }
  | {
      readonly kind: 'kept';
      readonly path: string;
      readonly owner: 'integrator';
      readonly why: KeptWhy;
    }
  | {
      readonly kind: 'remove';
      readonly path: string;
      readonly owner: 'toolkit';
      readonly backup?: Backup;
    };

/** A toolkit file the plan will not overwrite without `force`. */
export interface EditedFile {
  readonly path: string;
  /** `edited`: differs from the recorded hash. `unrecorded`: no hash known, and not what this version ships. */
  readonly why: 'edited' | 'unrecorded';
  /** The file is gone from this version: it would be removed, not replaced. */
  readonly removal: boolean;
}

export type UpgradePlan =
  | {
      readonly kind: 'ready';
      readonly actions: readonly FileAction[];
      readonly record: ToolkitRecord;
      readonly from: ToolkitRecord | undefined;
    }
  | {
      readonly kind: 'refused';
      readonly edited: readonly EditedFile[];
      readonly packageJson: string | undefined;
      readonly stray: readonly string[];
    };

export type ReadyPlan = Extract<UpgradePlan, { kind: 'ready' }>;

type Verdict = { readonly safe: true } | { readonly safe: false; readonly why: EditedFile['why'] };

/** May the file on disk be replaced without losing an edit of the integrator? */
function judge(
  current: Buffer,
  recordedHash: string | undefined,
  next: Buffer | undefined,
): Verdict {
  if (recordedHash !== undefined && contentHash(current) === recordedHash) return { safe: true };
  // The same code as ours under another (or no) header: nothing of theirs would be lost.
  if (next !== undefined && withoutHeader(current).equals(withoutHeader(next)))
    return { safe: true };
  return { safe: false, why: recordedHash === undefined ? 'unrecorded' : 'edited' };
}

function backupName(path: string, exists: (path: string) => boolean, taken: Set<string>): string {
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? `${path}.orig` : `${path}.orig.${n}`;
    if (!exists(candidate) && !taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
}

interface Draft {
  readonly edited: EditedFile[];
  readonly taken: Set<string>;
  /** The integrator's files as the generator wrote them, carried into the next record. */
  readonly integratorFiles: Record<string, string>;
  packageJson: string | undefined;
}

/** An edited file's contents kept as `.orig` (named to clobber nothing), or nothing when it was safe to touch. */
function keep(
  path: string,
  current: Buffer,
  verdict: Verdict,
  removal: boolean,
  input: PlanInput,
  draft: Draft,
): { backup?: Backup } {
  if (verdict.safe) return {};
  draft.edited.push({ path, why: verdict.why, removal });
  return { backup: { path: backupName(path, input.exists, draft.taken), contents: current } };
}

function planToolkitFile({ path, contents }: NextFile, input: PlanInput, draft: Draft): FileAction {
  const current = input.current.get(path);
  const recorded = input.recorded?.files[path];
  const owner = 'toolkit';
  if (current === undefined)
    return { kind: 'add', path, owner, contents, restored: recorded !== undefined };
  if (current.equals(contents)) return { kind: 'unchanged', path, owner };
  const kept = keep(path, current, judge(current, recorded, contents), false, input, draft);
  return { kind: 'update', path, owner, contents, ...kept };
}

function planRemoval(
  path: string,
  recordedHash: string,
  input: PlanInput,
  draft: Draft,
): FileAction | undefined {
  const current = input.current.get(path);
  if (current === undefined) return undefined;
  const kept = keep(path, current, judge(current, recordedHash, undefined), true, input, draft);
  return { kind: 'remove', path, owner: 'toolkit', ...kept };
}

function planIntegratorFile(
  { path, contents }: NextFile,
  current: Buffer,
  input: PlanInput,
  draft: Draft,
): FileAction {
  const written = input.recorded?.integratorFiles?.[path];
  if (current.equals(contents)) {
    draft.integratorFiles[path] = contentHash(contents);
    return { kind: 'unchanged', path, owner: 'integrator' };
  }
  if (written !== undefined) draft.integratorFiles[path] = written;
  const why =
    written === undefined
      ? 'unrecorded'
      : written === contentHash(current)
        ? 'template_changed'
        : 'edited';
  return { kind: 'kept', path, owner: 'integrator', why };
}

function planOther(file: NextFile, input: PlanInput, draft: Draft): FileAction | undefined {
  const { path, owner } = file;
  const current = input.current.get(path);
  if (current === undefined) {
    if (owner === 'integrator') draft.integratorFiles[path] = contentHash(file.contents);
    return { kind: 'add', path, owner, contents: file.contents, restored: false };
  }
  if (owner === 'integrator') return planIntegratorFile(file, current, input, draft);
  const merged = mergePackageJson(current.toString('utf8'), file.contents.toString('utf8'));
  if (!merged.ok) {
    draft.packageJson = merged.reason;
    return undefined;
  }
  const contents = Buffer.from(merged.text, 'utf8');
  if (contents.equals(current)) return { kind: 'unchanged', path, owner };
  return { kind: 'update', path, owner, contents, changes: merged.changes };
}

export function planUpgrade(input: PlanInput): UpgradePlan {
  const stray = strayRecordPaths(input.recorded);
  if (stray.length > 0) return { kind: 'refused', edited: [], packageJson: undefined, stray };
  const draft: Draft = {
    edited: [],
    taken: new Set(),
    integratorFiles: {},
    packageJson: undefined,
  };
  const toolkit = input.next.filter((f) => f.owner === 'toolkit');
  const shipped = new Set(toolkit.map((f) => f.path));
  const actions = [
    ...input.next.map((f) =>
      f.owner === 'toolkit' ? planToolkitFile(f, input, draft) : planOther(f, input, draft),
    ),
    ...Object.entries(input.recorded?.files ?? {})
      .filter(([path]) => !shipped.has(path))
      .map(([path, hash]) => planRemoval(path, hash, input, draft)),
  ].filter((action) => action !== undefined);
  if (draft.packageJson !== undefined || (draft.edited.length > 0 && !input.force))
    return { kind: 'refused', edited: draft.edited, packageJson: draft.packageJson, stray: [] };
  const files = Object.fromEntries(toolkit.map((f) => [f.path, contentHash(f.contents)]));
  const record = {
    version: input.version,
    dir: input.dir,
    files,
    integratorFiles: draft.integratorFiles,
  };
  return { kind: 'ready', actions, record, from: input.recorded };
}

/** The actions that write or delete something: what `--bail` refuses and what a summary lists first. */
export function changingActions(
  plan: ReadyPlan,
): Extract<FileAction, { kind: 'add' | 'update' | 'remove' }>[] {
  return plan.actions.filter((a) => a.kind === 'add' || a.kind === 'update' || a.kind === 'remove');
}

/**
 * The plan as the list of file changes a run makes, in order: an edited file's `.orig` copy
 * before the file is replaced or removed, so the edit is on disk first. The changes are
 * checked (write-safety.ts) and put in place all or nothing (staged-commit.ts).
 */
export function planChanges(plan: ReadyPlan): FileChange[] {
  return changingActions(plan).flatMap((action): FileChange[] => {
    const backup = 'backup' in action && action.backup ? [action.backup] : [];
    return [
      ...backup,
      { path: action.path, contents: action.kind === 'remove' ? undefined : action.contents },
    ];
  });
}
