/** Types for manifest.mjs (plain JS so it runs without a build; the tests import it). */
interface PackageJson {
  name: string;
  version: string;
  license?: string;
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
}
interface Lockfile {
  packages: Record<string, { name?: string; version?: string; dev?: boolean; link?: boolean }>;
}
export declare const MONITOR_PACKAGE_NAME: string;
export declare function monitorManifest(
  rootPkg: PackageJson,
  packages: Iterable<string>,
): PackageJson & { private: true; dependencies: Record<string, string> };
export declare function installedPackages(lock: Lockfile): Map<string, string[]>;
export declare function dependenciesMarkdown(rootLock: Lockfile, monitorLock: Lockfile): string;
