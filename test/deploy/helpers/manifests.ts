/** Reading the deployment files: Kubernetes YAML documents, Dockerfile stages, systemd sections. */
import { readFileSync, readdirSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { DEPLOY } from './paths.js';

export const KUBERNETES_DIR = `${DEPLOY}kubernetes/`;

interface Metadata {
  name: string;
  labels?: Record<string, string>;
}
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: Metadata;
  [field: string]: unknown;
}

// The fields of each Kubernetes kind the tests read, as the API names them (the rest left out).
type Labels = Record<string, string>;
type HttpProbe = { httpGet: { path: string; port: string | number } };
export type EnvVar = {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
};
type Container = {
  args: string[];
  env: EnvVar[];
  ports: { name: string; containerPort: number }[];
  resources: Record<'requests' | 'limits', { cpu?: string; memory?: string }>;
  securityContext: Record<string, unknown>;
  livenessProbe: HttpProbe;
  startupProbe: HttpProbe;
  readinessProbe: HttpProbe;
  volumeMounts: { name: string; mountPath: string }[];
};
interface Kinds {
  StatefulSet: {
    spec: {
      serviceName: string;
      replicas: number;
      selector: { matchLabels: Labels };
      template: {
        metadata: { labels: Labels };
        spec: {
          automountServiceAccountToken?: boolean;
          securityContext: { runAsNonRoot?: boolean; runAsUser?: number };
          containers: Container[];
          volumes: { name: string; configMap?: { name: string } }[];
        };
      };
    };
  };
  ConfigMap: { data: Record<string, string> };
  Secret: { stringData?: Record<string, string>; data?: Record<string, string> };
  Service: { spec: { clusterIP: string; selector: Labels; ports: { name: string }[] } };
  ServiceMonitor: { spec: { selector: { matchLabels: Labels }; endpoints: { port: string; path: string; honorLabels?: boolean }[] } };
  PodDisruptionBudget: { spec: { selector: { matchLabels: Labels } } };
}

export function kubernetesFiles(): string[] {
  return readdirSync(KUBERNETES_DIR)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort();
}

export function readManifests(file: string): Manifest[] {
  const docs = parseAllDocuments(readFileSync(`${KUBERNETES_DIR}${file}`, 'utf8'));
  return docs.map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS() as Manifest;
  });
}

export function manifestOf<K extends keyof Kinds>(kind: K): Manifest & Kinds[K] {
  const found = kubernetesFiles()
    .flatMap(readManifests)
    .filter((m) => m.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0] as Manifest & Kinds[K];
}

export interface DockerStage {
  readonly name: string;
  readonly instructions: { readonly op: string; readonly args: string }[];
}

/** Splits a Dockerfile into stages of instructions, joining `\` continuations and dropping comments. */
export function dockerStages(text: string): DockerStage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const stages: { name: string; instructions: { op: string; args: string }[] }[] = [];
  for (const line of lines) {
    const [op = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (op.toUpperCase() === 'FROM') stages.push({ name: /\bAS\s+(\S+)/i.exec(args)?.[1] ?? String(stages.length), instructions: [] });
    const stage = stages.at(-1);
    if (stage) stage.instructions.push({ op: op.toUpperCase(), args });
  }
  return stages;
}

/** `[Section]` -> key -> every value given for it (systemd allows repeats). */
export function unitSections(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      current = new Map();
      sections.set(header[1]!, current);
      continue;
    }
    const eq = line.indexOf('=');
    if (!current || eq < 0) continue;
    const key = line.slice(0, eq).trim();
    current.set(key, [...(current.get(key) ?? []), line.slice(eq + 1).trim()]);
  }
  return sections;
}
