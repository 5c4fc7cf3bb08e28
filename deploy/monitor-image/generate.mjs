#!/usr/bin/env node
/**
 * Regenerates the monitor image's manifest, lockfile and DEPENDENCIES.md from the root
 * package.json, package-lock.json and the monitor's import graph. Run it after changing a
 * dependency or what the monitor imports (test/reliability/monitor-image.test.ts says when):
 *   node deploy/monitor-image/generate.mjs
 * The lockfile is resolved by npm from a copy of the root lockfile, so every version the image
 * installs is one the package is tested with; it asks the registry only for metadata it lacks.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importGraph } from './import-graph.mjs';
import { dependenciesMarkdown, monitorManifest } from './manifest.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

const manifest = monitorManifest(readJson(join(root, 'package.json')), importGraph(root).packages.keys());
const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
writeFileSync(join(here, 'package.json'), manifestText);

// In a temp dir: npm must not touch the checkout's node_modules (or anyone else's).
const work = mkdtempSync(join(tmpdir(), 'monitor-image-'));
try {
  writeFileSync(join(work, 'package.json'), manifestText);
  copyFileSync(join(root, 'package-lock.json'), join(work, 'package-lock.json'));
  execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: work,
    stdio: 'inherit',
  });
  copyFileSync(join(work, 'package-lock.json'), join(here, 'package-lock.json'));
} finally {
  rmSync(work, { recursive: true, force: true });
}

writeFileSync(
  join(here, 'DEPENDENCIES.md'),
  dependenciesMarkdown(readJson(join(root, 'package-lock.json')), readJson(join(here, 'package-lock.json'))),
);
console.log(`wrote ${here}package.json, package-lock.json, DEPENDENCIES.md: ${Object.keys(manifest.dependencies).join(', ')}`);
