import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Started first, longest first: on two workers the run ends when its longest file does, so the
 * end-to-end suites must not be picked up last. The rest follow vitest's own order (slowest
 * last time, else largest).
 */
const SLOW_FIRST = [
  'test/runtime/node-lines.test.ts',
  'test/generator/integrator-e2e.test.ts',
  'test/deploy/alert-stack.test.ts',
  'test/generator/e2e.test.ts',
  'test/generator/tenant-names.test.ts',
  'test/generator/upgrade.test.ts',
  'test/deploy/prometheus-rules.test.ts',
  'test/lint.test.ts',
  'test/dialects/monitor.test.ts',
  'test/reliability/bad-input.test.ts',
  'test/generator/writes.test.ts',
  'test/deploy/expressions.test.ts',
  'test/diagnose/situations.test.ts',
  'test/diagnose/probe.sandbox.test.ts',
  'test/reliability/secrets-canary.test.ts',
];

/**
 * Files that change what a whole process shares get a process each: yeoman-test changes the
 * working directory, `vi.mock` the module graph. Every other file runs in a worker that keeps
 * its modules from one file to the next (`isolate: false`): loading them again for each of
 * ~150 files cost more CPU than most of the files' tests.
 */
const OWN_PROCESS = ['test/generator/**/*.test.ts', 'test/monitor/service/tracing.test.ts'];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number => {
      const index = SLOW_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
      return index >= 0 ? index : SLOW_FIRST.length + (spec.project.config.isolate ? 0 : 1);
    };
    // Array sort is stable: the base order holds within each rank. Isolated files before
    // shared ones, so that a shared worker is reused for every shared file after it.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Two cores: the end-to-end suites start servers and child processes.
    maxWorkers: 2,
    sequence: { sequencer: SlowFirst },
    projects: [
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS } },
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: OWN_PROCESS, isolate: false } },
    ],
  },
});
