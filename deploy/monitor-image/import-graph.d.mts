/** Types for import-graph.mjs (plain JS so it runs without a build; the tests import it). */
export declare const MONITOR_ENTRY: string;
export declare const GENERATOR_COMMANDS: string[];
export declare const GENERATOR_PACKAGES: string[];
export declare function packageName(specifier: string): string;
export declare function importGraph(
  root: string,
  options?: { entries?: readonly string[]; stopAt?: readonly string[]; dynamic?: boolean },
): { files: string[]; packages: Map<string, string> };
