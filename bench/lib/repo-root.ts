/** The checkout's root, found from here whether this runs as TypeScript (vitest) or from dist/. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function repoRoot(from: string = import.meta.dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'deploy'))) return dir;
  }
  throw new Error(`no checkout (package.json and deploy/) above ${from}`);
}
