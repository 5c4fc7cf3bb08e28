/**
 * Merging our package.json into the integrator's on a re-run or upgrade, as a pure function
 * of the two texts. The rules: add our dependencies they lack, raise the ones where our range
 * is newer, never remove or lower one of theirs (nor touch one whose range we cannot read);
 * add our scripts and `overrides` entries they lack and never change theirs; `engines.node` is
 * raised like a dependency. Every other field is theirs. Their indentation and key order are kept.
 */
import { type Json, isObject } from './toolkit-record.js';

/** What the merge did, so the run can say it. */
export type PackageChange =
  | {
      readonly kind: 'dependency_added';
      readonly section: string;
      readonly name: string;
      readonly range: string;
    }
  | {
      readonly kind: 'dependency_raised';
      readonly section: string;
      readonly name: string;
      readonly from: string;
      readonly to: string;
    }
  | {
      readonly kind: 'dependency_kept';
      readonly section: string;
      readonly name: string;
      readonly theirs: string;
      readonly ours: string;
      readonly why: 'theirs_newer' | 'unreadable_range';
    }
  | { readonly kind: 'script_added'; readonly name: string }
  | { readonly kind: 'override_added'; readonly name: string; readonly range: string }
  | { readonly kind: 'engine_raised'; readonly from: string | undefined; readonly to: string };

export type PackageMerge =
  | { readonly ok: true; readonly text: string; readonly changes: readonly PackageChange[] }
  | { readonly ok: false; readonly reason: string };

const DEPENDENCY_SECTIONS = ['dependencies', 'devDependencies'] as const;
/** Where a dependency of theirs may live; one found anywhere here is never added a second time. */
const LOOKUP_SECTIONS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
] as const;

/** The object, or what the text holds instead (for the refusal). */
function parse(text: string): Json | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  if (isObject(value)) return value;
  return `it holds ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}`;
}

/** The indentation their file uses (two spaces when it cannot tell). */
function indentOf(text: string): string | number {
  const match = /\n([ \t]+)"/.exec(text);
  return match?.[1] ?? 2;
}

function isSorted(keys: readonly string[]): boolean {
  return keys.every((key, i) => i === 0 || keys[i - 1]!.localeCompare(key) <= 0);
}

/** Adds a key; keeps an alphabetical section alphabetical (npm writes them that way). */
function withKey(section: Json, name: string, value: unknown): Json {
  const keys = Object.keys(section);
  const out: Json = { ...section, [name]: value };
  if (!isSorted(keys)) return out;
  return Object.fromEntries(
    Object.keys(out)
      .sort((a, b) => a.localeCompare(b))
      .map((k) => [k, out[k]]),
  );
}

function findTheirs(pkg: Json, name: string): { section: string; range: unknown } | undefined {
  for (const section of LOOKUP_SECTIONS) {
    const deps = pkg[section];
    if (isObject(deps) && name in deps) return { section, range: deps[name] };
  }
  return undefined;
}

function mergeDependencies(theirs: Json, ours: Json, changes: PackageChange[]): Json {
  let out = theirs;
  for (const section of DEPENDENCY_SECTIONS) {
    const wanted = ours[section];
    if (!isObject(wanted)) continue;
    for (const [name, range] of Object.entries(wanted)) {
      if (typeof range !== 'string') continue;
      const found = findTheirs(out, name);
      if (!found) {
        out = {
          ...out,
          [section]: withKey(isObject(out[section]) ? out[section] : {}, name, range),
        };
        changes.push({ kind: 'dependency_added', section, name, range });
        continue;
      }
      const current = typeof found.range === 'string' ? found.range : '';
      const order = compareRanges(range, current);
      if (order === 'newer') {
        out = { ...out, [found.section]: { ...(out[found.section] as Json), [name]: range } };
        changes.push({
          kind: 'dependency_raised',
          section: found.section,
          name,
          from: current,
          to: range,
        });
      } else if (order === 'older' || order === 'unknown') {
        changes.push({
          kind: 'dependency_kept',
          section: found.section,
          name,
          theirs: current,
          ours: range,
          why: order === 'older' ? 'theirs_newer' : 'unreadable_range',
        });
      }
    }
  }
  return out;
}

/** Our entries of `field` they lack, added (sorted in if theirs are); theirs never changed. */
function addMissing(
  theirs: Json,
  ours: Json,
  field: 'scripts' | 'overrides',
): { out: Json; added: [string, string][] } {
  const wanted = ours[field];
  let entries: Json = isObject(theirs[field]) ? theirs[field] : {};
  const added: [string, string][] = [];
  for (const [name, value] of Object.entries(isObject(wanted) ? wanted : {})) {
    if (name in entries || typeof value !== 'string') continue;
    entries = withKey(entries, name, value);
    added.push([name, value]);
  }
  return { out: added.length > 0 ? { ...theirs, [field]: entries } : theirs, added };
}

function mergeEngine(theirs: Json, ours: Json, changes: PackageChange[]): Json {
  const wanted = isObject(ours['engines']) ? ours['engines']['node'] : undefined;
  if (typeof wanted !== 'string') return theirs;
  const engines: Json = isObject(theirs['engines']) ? theirs['engines'] : {};
  const current = typeof engines['node'] === 'string' ? engines['node'] : undefined;
  if (current !== undefined && compareRanges(wanted, current) !== 'newer') return theirs;
  changes.push({ kind: 'engine_raised', from: current, to: wanted });
  return { ...theirs, engines: { ...engines, node: wanted } };
}

/**
 * Their package.json with ours merged in. `ours` is the package.json this version of the
 * generator renders; `theirs` what is on disk. Unchanged input gives byte-identical output.
 */
export function mergePackageJson(theirsText: string, oursText: string): PackageMerge {
  const theirs = parse(theirsText);
  if (typeof theirs === 'string')
    return {
      ok: false,
      reason: `package.json is not a JSON object (${theirs}); nothing was written. Fix it (or move it away), then run again.`,
    };
  const ours = parse(oursText);
  if (typeof ours === 'string')
    throw new Error(`the package.json template did not render to a JSON object (${ours})`);
  const changes: PackageChange[] = [];
  let merged = mergeDependencies(theirs, ours, changes);
  const scripts = addMissing(merged, ours, 'scripts');
  for (const [name] of scripts.added) changes.push({ kind: 'script_added', name });
  // An override we pin (a broken release beneath theirs) is added; one of theirs is never changed.
  const overrides = addMissing(scripts.out, ours, 'overrides');
  for (const [name, range] of overrides.added)
    changes.push({ kind: 'override_added', name, range });
  merged = mergeEngine(overrides.out, ours, changes);
  const written = changes.some((c) => c.kind !== 'dependency_kept');
  if (!written) return { ok: true, text: theirsText, changes };
  const newline = theirsText.endsWith('\n') ? '\n' : '';
  return { ok: true, text: JSON.stringify(merged, null, indentOf(theirsText)) + newline, changes };
}

/**
 * Ranges are compared by the lowest version each accepts, for the one question the merge asks:
 * is our range newer than theirs? Only the plain forms we write ourselves are read (`1.2.3`,
 * `^1.2.3`, `~1.2.3`, `>=1.2.3`, with missing minor/patch as 0). Anything else (`*`,
 * `latest`, `file:`, git URLs, `||` unions, hyphen ranges) is `unknown`, and the merge then
 * leaves their range alone: we never guess over an integrator's deliberate choice. Written
 * here rather than taken from `semver` so the toolkit adds no dependency.
 */
type VersionFloor =
  | {
      readonly kind: 'version';
      readonly parts: readonly [number, number, number];
      readonly prerelease: boolean;
    }
  | { readonly kind: 'unknown' };

const RANGE =
  /^\s*(?:\^|~|>=|=|v)?\s*(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?\s*$/;

function part(raw: string | undefined): number {
  return raw === undefined || raw === 'x' || raw === '*' ? 0 : Number(raw);
}

function versionFloor(range: string): VersionFloor {
  const match = RANGE.exec(range);
  if (!match) return { kind: 'unknown' };
  return {
    kind: 'version',
    parts: [part(match[1]), part(match[2]), part(match[3])],
    prerelease: match[4] !== undefined,
  };
}

type RangeOrder = 'newer' | 'same' | 'older' | 'unknown';

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
