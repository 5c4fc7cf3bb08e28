/** No file of the ops kit holds an API key: only `${ENV}` references and placeholders. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KEY_PREFIXES } from '../../api/contract/index.js';
import { DEPLOY, ROOT } from './helpers/paths.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = `${dir}${name}`;
    return statSync(path).isDirectory() ? filesUnder(`${path}/`) : [path];
  });
}

describe('ops kit files', () => {
  it('contain no key literal (a key prefix followed by key material)', () => {
    const prefixes = Object.values(KEY_PREFIXES).join('|');
    const keyLike = new RegExp(`(${prefixes})[A-Za-z0-9_-]{8,}`);
    const files = [...filesUnder(DEPLOY), `${ROOT}Dockerfile`, `${ROOT}.dockerignore`];
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => keyLike.test(readFileSync(f, 'utf8')))).toEqual([]);
  });
});
