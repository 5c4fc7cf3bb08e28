/**
 * Fault path globs (issue 31, finding 3): matched by a set-of-states walk, never a backtracking
 * regular expression. The walk agrees with the regular expression the sandbox used before on
 * every small glob and path; and the glob that hung a real sandbox (`/*a*a*...*b` against a
 * path of 3,000 `a`s) is answered, and SIGTERM ends that sandbox within a second.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../sandbox/faults/glob.js';
import { startSandboxProcess } from '../helpers/rig.js';

/** What the sandbox matched with before: right, but exponential on some globs. */
function backtracking(glob: string): RegExp {
  const body = glob
    .replace(/\/+$/, '')
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body === '' ? '/' : body}/*$`);
}

const HOSTILE = `/${'*a'.repeat(23)}*b`;

describe('compileGlob', () => {
  it('matches what the regular expression matched, on every small glob and path', () => {
    const glob = fc.array(fc.constantFrom('a', 'b', '/', '*', '.'), { maxLength: 8 }).map((parts) => `/${parts.join('')}`);
    const path = fc.array(fc.constantFrom('a', 'b', '/', '.'), { maxLength: 10 }).map((parts) => `/${parts.join('')}`);
    fc.assert(
      fc.property(glob, path, (g, p) => compileGlob(g).test(p) === backtracking(g).test(p)),
      { numRuns: 2_000 },
    );
  });

  it('the documented shapes: * is one segment, ** any number, trailing slashes ignored', () => {
    const cases: [string, string, boolean][] = [
      ['/tenants/*/bikes', '/tenants/rowery-nowak/bikes', true],
      ['/tenants/*/bikes', '/tenants/a/b/bikes', false],
      ['/tenants/**', '/tenants/a/b/bikes', true],
      ['/docs/', '/docs//', true],
      ['/', '/', true],
      ['/', '/docs', false],
      [HOSTILE, `/${'a'.repeat(3_000)}`, false],
      [HOSTILE, `/${'a'.repeat(30)}b`, true],
    ];
    for (const [g, p, expected] of cases) expect(compileGlob(g).test(p), `${g} ${p.slice(0, 40)}`).toBe(expected);
  });
});

describe('a hostile glob against a real sandbox', { timeout: 60_000 }, () => {
  it("a request of 3,000 a's is answered (404: the rule does not match; 503 where it does), and SIGTERM ends the sandbox within a second", async () => {
    const sandbox = await startSandboxProcess();
    try {
      const control = sandbox.line['control'] as { url: string; token: string };
      const put = await fetch(control.url, {
        method: 'PUT',
        headers: { authorization: `Bearer ${control.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ faults: `status:503@${HOSTILE}` }),
      });
      expect(put.status).toBe(200);
      // Bounded: before, the sandbox never answered (and ignored SIGTERM).
      const answered = await fetch(`${sandbox.baseUrl}/${'a'.repeat(3_000)}`, { signal: AbortSignal.timeout(10_000) });
      expect(answered.status).toBe(404);
      const matching = await fetch(`${sandbox.baseUrl}/${'a'.repeat(30)}b`, { signal: AbortSignal.timeout(10_000) });
      expect(matching.status).toBe(503);
    } finally {
      sandbox.process.child.kill('SIGTERM');
      // A hung sandbox never exits by itself: SIGKILL after 5 s, and exit code 0 proves SIGTERM was answered.
      const stuck = setTimeout(() => sandbox.process.child.kill('SIGKILL'), 5_000);
      const code = await sandbox.process.exited.finally(() => clearTimeout(stuck));
      expect(code).toBe(0);
    }
  });
});
