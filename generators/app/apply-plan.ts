/**
 * A ready plan as the list of file changes a run makes, in order: an edited file's `.orig`
 * copy before the file is replaced or removed, so the edit is on disk first. Pure; the
 * changes are checked (write-safety.ts) and put in place all or nothing (staged-commit.ts).
 */
import type { FileChange } from './staged-commit.js';
import type { UpgradePlan } from './upgrade-plan.js';

export function planChanges(plan: Extract<UpgradePlan, { kind: 'ready' }>): FileChange[] {
  const changes: FileChange[] = [];
  for (const action of plan.actions) {
    switch (action.kind) {
      case 'add':
        changes.push({ path: action.path, contents: action.contents });
        break;
      case 'update':
        if (action.backup) changes.push({ path: action.backup.path, contents: action.backup.contents });
        changes.push({ path: action.path, contents: action.contents });
        break;
      case 'remove':
        if (action.backup) changes.push({ path: action.backup.path, contents: action.backup.contents });
        changes.push({ path: action.path, contents: undefined });
        break;
      case 'kept':
      case 'unchanged':
        break;
    }
  }
  return changes;
}
