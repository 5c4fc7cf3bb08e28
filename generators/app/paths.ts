/**
 * Where our package lives. The generator runs compiled (dist/generators/app) under yo and
 * from source under vitest, so the root is found by walking up, not by a fixed `../..`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const OUR_PACKAGE_NAME = 'generator-repair-service';

export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: unknown };
      if (pkg.name === OUR_PACKAGE_NAME) return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ${OUR_PACKAGE_NAME} package above ${from}`);
    dir = parent;
  }
}

export function templateRoot(root: string = packageRoot()): string {
  return join(root, 'templates', 'app');
}
