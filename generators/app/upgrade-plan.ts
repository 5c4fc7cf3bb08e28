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
  readonly actions: FileAction[];
  readonly edited: EditedFile[];
  readonly taken: Set<string>;
  /** The integrator's files as the generator wrote them, carried into the next record. */
  readonly integratorFiles: Record<string, string>;
  packageJson: string | undefined;
}

function planToolkitFile(file: NextFile, input: PlanInput, draft: Draft): void {
  const current = input.current.get(file.path);
  const recorded = input.recorded?.files[file.path];
  if (current === undefined) {
    draft.actions.push({
      kind: 'add',
      path: file.path,
      owner: 'toolkit',
      contents: file.contents,
      restored: recorded !== undefined,
    });
    return;
  }
  if (current.equals(file.contents)) {
    draft.actions.push({ kind: 'unchanged', path: file.path, owner: 'toolkit' });
    return;
  }
  const verdict = judge(current, recorded, file.contents);
  if (verdict.safe) {
    draft.actions.push({
      kind: 'update',
      path: file.path,
      owner: 'toolkit',
      contents: file.contents,
    });
    return;
  }
  draft.edited.push({ path: file.path, why: verdict.why, removal: false });
  const backup = { path: backupName(file.path, input.exists, draft.taken), contents: current };
  draft.actions.push({
    kind: 'update',
    path: file.path,
    owner: 'toolkit',
    contents: file.contents,
    backup,
  });
}

function planRemoval(path: string, recordedHash: string, input: PlanInput, draft: Draft): void {
  const current = input.current.get(path);
  if (current === undefined) return;
  const verdict = judge(current, recordedHash, undefined);
  if (verdict.safe) {
    draft.actions.push({ kind: 'remove', path, owner: 'toolkit' });
    return;
  }
  draft.edited.push({ path, why: verdict.why, removal: true });
  draft.actions.push({
    kind: 'remove',
    path,
    owner: 'toolkit',
    backup: { path: backupName(path, input.exists, draft.taken), contents: current },
  });
}

function planIntegratorFile(file: NextFile, current: Buffer, input: PlanInput, draft: Draft): void {
  const written = input.recorded?.integratorFiles?.[file.path];
  if (current.equals(file.contents)) {
    draft.actions.push({ kind: 'unchanged', path: file.path, owner: 'integrator' });
    draft.integratorFiles[file.path] = contentHash(file.contents);
    return;
  }
  const why: KeptWhy =
    written === undefined
      ? 'unrecorded'
      : written === contentHash(current)
        ? 'template_changed'
        : 'edited';
  draft.actions.push({ kind: 'kept', path: file.path, owner: 'integrator', why });
  if (written !== undefined) draft.integratorFiles[file.path] = written;
}

function planOther(file: NextFile, input: PlanInput, draft: Draft): void {
  const current = input.current.get(file.path);
  if (current === undefined) {
    draft.actions.push({
      kind: 'add',
      path: file.path,
      owner: file.owner,
      contents: file.contents,
      restored: false,
    });
    if (file.owner === 'integrator') draft.integratorFiles[file.path] = contentHash(file.contents);
    return;
  }
  if (file.owner === 'integrator') return planIntegratorFile(file, current, input, draft);
  const merged = mergePackageJson(current.toString('utf8'), file.contents.toString('utf8'));
  if (!merged.ok) {
    draft.packageJson = merged.reason;
    return;
  }
  const contents = Buffer.from(merged.text, 'utf8');
  draft.actions.push(
    contents.equals(current)
      ? { kind: 'unchanged', path: file.path, owner: 'package_json' }
      : {
          kind: 'update',
          path: file.path,
          owner: 'package_json',
          contents,
          changes: merged.changes,
        },
  );
}

export function planUpgrade(input: PlanInput): UpgradePlan {
  const stray = strayRecordPaths(input.recorded);
  if (stray.length > 0) return { kind: 'refused', edited: [], packageJson: undefined, stray };
  const draft: Draft = {
    actions: [],
    edited: [],
    taken: new Set(),
    integratorFiles: {},
    packageJson: undefined,
  };
  for (const file of input.next) {
    if (file.owner === 'toolkit') planToolkitFile(file, input, draft);
    else planOther(file, input, draft);
  }
  const shipped = new Set(input.next.filter((f) => f.owner === 'toolkit').map((f) => f.path));
  for (const [path, hash] of Object.entries(input.recorded?.files ?? {})) {
    if (!shipped.has(path)) planRemoval(path, hash, input, draft);
  }
  const refused = draft.packageJson !== undefined || (draft.edited.length > 0 && !input.force);
  if (refused)
    return { kind: 'refused', edited: draft.edited, packageJson: draft.packageJson, stray: [] };
  const files: Record<string, string> = {};
  for (const file of input.next)
    if (file.owner === 'toolkit') files[file.path] = contentHash(file.contents);
  const record = {
    version: input.version,
    dir: input.dir,
    files,
    integratorFiles: draft.integratorFiles,
  };
  return { kind: 'ready', actions: draft.actions, record, from: input.recorded };
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
