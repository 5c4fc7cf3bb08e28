/**
 * The lowest version an npm range accepts, for the one question the package.json merge asks:
 * is our range newer than theirs? Only the plain forms we write ourselves are read (`1.2.3`,
 * `^1.2.3`, `~1.2.3`, `>=1.2.3`, with missing minor/patch as 0). Anything else (`*`,
 * `latest`, `file:`, git URLs, `||` unions, hyphen ranges) is `unknown`, and the merge then
 * leaves their range alone: we never guess over an integrator's deliberate choice. Written
 * here rather than taken from `semver` so the toolkit adds no dependency.
 */

export type VersionFloor = { readonly kind: 'version'; readonly parts: readonly [number, number, number]; readonly prerelease: boolean } | { readonly kind: 'unknown' };

const RANGE = /^\s*(?:\^|~|>=|=|v)?\s*(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?\s*$/;

function part(raw: string | undefined): number {
  return raw === undefined || raw === 'x' || raw === '*' ? 0 : Number(raw);
}

export function versionFloor(range: string): VersionFloor {
  const match = RANGE.exec(range);
  if (!match) return { kind: 'unknown' };
  return { kind: 'version', parts: [part(match[1]), part(match[2]), part(match[3])], prerelease: match[4] !== undefined };
}

export type RangeOrder = 'newer' | 'same' | 'older' | 'unknown';

/** How `ours` compares with `theirs` by the lowest version each accepts. */
export function compareRanges(ours: string, theirs: string): RangeOrder {
  if (ours.trim() === theirs.trim()) return 'same';
  const a = versionFloor(ours);
  const b = versionFloor(theirs);
  if (a.kind === 'unknown' || b.kind === 'unknown') return 'unknown';
  for (let i = 0; i < 3; i++) {
    const diff = a.parts[i]! - b.parts[i]!;
    if (diff !== 0) return diff > 0 ? 'newer' : 'older';
  }
  // 1.2.3-beta.1 is below 1.2.3; between two prereleases of one version we do not judge.
  if (a.prerelease !== b.prerelease) return a.prerelease ? 'older' : 'newer';
  return a.prerelease ? 'unknown' : 'same';
}
