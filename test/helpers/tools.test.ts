import { describe, expect, it } from 'vitest';
import { MissingToolError, REQUIRE_TOOLS_VAR, toolAvailable } from './tools.js';

describe('a missing tool', () => {
  it('is a loud skip on a developer machine', () => {
    expect(toolAvailable(false, 'a test', 'some-tool', {})).toBe(false);
  });

  it(`is a failure when ${REQUIRE_TOOLS_VAR}=1, as .ci/run sets it`, () => {
    expect(() => toolAvailable(false, 'a test', 'some-tool', { [REQUIRE_TOOLS_VAR]: '1' })).toThrow(MissingToolError);
    expect(toolAvailable(true, 'a test', 'some-tool', { [REQUIRE_TOOLS_VAR]: '1' })).toBe(true);
  });
});
