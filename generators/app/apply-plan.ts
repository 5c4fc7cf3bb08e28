/**
 * Carrying a plan out through a writer. The generator's writer is yeoman's in-memory fs with
 * each file's conflict already decided (the plan is the decision), so yeoman never asks and a
 * run works without a terminal; tests can pass a writer that records.
 */
import type { UpgradePlan } from './upgrade-plan.js';

export interface PlanWriter {
  /** `fresh`: the path does not exist yet. */
  write(path: string, contents: Buffer, fresh: boolean): void;
  remove(path: string): void;
}

export function applyPlan(plan: Extract<UpgradePlan, { kind: 'ready' }>, writer: PlanWriter): void {
  for (const action of plan.actions) {
    switch (action.kind) {
      case 'add':
        writer.write(action.path, action.contents, true);
        break;
      case 'update':
        // The edited version first, so it is on disk before the file is replaced.
        if (action.backup) writer.write(action.backup.path, action.backup.contents, true);
        writer.write(action.path, action.contents, false);
        break;
      case 'remove':
        if (action.backup) writer.write(action.backup.path, action.backup.contents, true);
        writer.remove(action.path);
        break;
      case 'kept':
      case 'unchanged':
        break;
    }
  }
}
