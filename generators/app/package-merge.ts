/**
 * Merging our package.json into the integrator's on a re-run or upgrade, as a pure function
 * of the two texts. The rules: add our dependencies they lack, raise the ones where our range
 * is newer, never remove or lower one of theirs (nor touch one whose range we cannot read);
 * add our scripts they lack and never change theirs; `engines.node` is raised like a
 * dependency. Every other field is theirs. Their indentation and key order are kept.
 */
import { compareRanges } from './version-floor.js';

type Json = Record<string, unknown>;

/** What the merge did, so the run can say it. */
export type PackageChange =
  | { readonly kind: 'dependency_added'; readonly section: string; readonly name: string; readonly range: string }
  | { readonly kind: 'dependency_raised'; readonly section: string; readonly name: string; readonly from: string; readonly to: string }
  | { readonly kind: 'dependency_kept'; readonly section: string; readonly name: string; readonly theirs: string; readonly ours: string; readonly why: 'theirs_newer' | 'unreadable_range' }
  | { readonly kind: 'script_added'; readonly name: string }
  | { readonly kind: 'engine_raised'; readonly from: string | undefined; readonly to: string };

export type PackageMerge =
  | { readonly ok: true; readonly text: string; readonly changes: readonly PackageChange[] }
  | { readonly ok: false; readonly reason: string };

const DEPENDENCY_SECTIONS = ['dependencies', 'devDependencies'] as const;
/** Where a dependency of theirs may live; one found anywhere here is never added a second time. */
const LOOKUP_SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parse(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
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
  return Object.fromEntries(Object.keys(out).sort((a, b) => a.localeCompare(b)).map((k) => [k, out[k]]));
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
        out = { ...out, [section]: withKey(isObject(out[section]) ? (out[section] as Json) : {}, name, range) };
        changes.push({ kind: 'dependency_added', section, name, range });
        continue;
      }
      const current = typeof found.range === 'string' ? found.range : '';
      const order = compareRanges(range, current);
      if (order === 'newer') {
        out = { ...out, [found.section]: { ...(out[found.section] as Json), [name]: range } };
        changes.push({ kind: 'dependency_raised', section: found.section, name, from: current, to: range });
      } else if (order === 'older' || order === 'unknown') {
        changes.push({ kind: 'dependency_kept', section: found.section, name, theirs: current, ours: range, why: order === 'older' ? 'theirs_newer' : 'unreadable_range' });
      }
    }
  }
  return out;
}

function mergeScripts(theirs: Json, ours: Json, changes: PackageChange[]): Json {
  const wanted = ours['scripts'];
  if (!isObject(wanted)) return theirs;
  let scripts: Json = isObject(theirs['scripts']) ? (theirs['scripts'] as Json) : {};
  for (const [name, command] of Object.entries(wanted)) {
    if (name in scripts) continue;
    scripts = { ...scripts, [name]: command };
    changes.push({ kind: 'script_added', name });
  }
  return { ...theirs, scripts };
}

function mergeEngine(theirs: Json, ours: Json, changes: PackageChange[]): Json {
  const wanted = isObject(ours['engines']) ? (ours['engines'] as Json)['node'] : undefined;
  if (typeof wanted !== 'string') return theirs;
  const engines: Json = isObject(theirs['engines']) ? (theirs['engines'] as Json) : {};
  const current = typeof engines['node'] === 'string' ? (engines['node'] as string) : undefined;
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
  if (!theirs) return { ok: false, reason: 'package.json is not a JSON object; fix it (or move it away) and run again' };
  const ours = parse(oursText);
  if (!ours) throw new Error('the package.json template did not render to a JSON object');
  const changes: PackageChange[] = [];
  let merged = mergeDependencies(theirs, ours, changes);
  merged = mergeScripts(merged, ours, changes);
  merged = mergeEngine(merged, ours, changes);
  const written = changes.some((c) => c.kind !== 'dependency_kept');
  if (!written) return { ok: true, text: theirsText, changes };
  const newline = theirsText.endsWith('\n') ? '\n' : '';
  return { ok: true, text: JSON.stringify(merged, null, indentOf(theirsText)) + newline, changes };
}
