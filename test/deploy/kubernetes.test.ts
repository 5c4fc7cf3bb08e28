/**
 * The Kubernetes manifests, checked statically (no cluster here): they parse, point at each
 * other correctly, run the monitor non-root on a read-only root with probes and resources, split
 * the work with --shard i/N, and take every key from the Secret. The embedded monitor.yaml is
 * validated by the monitor's own config loader.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../monitor/config/load.js';
import { formatIssues } from '../../lib/index.js';
import { httpSettings } from '../../monitor/config/types.js';
import { unprotectedListen } from '../../monitor/http/auth.js';
import { parseListen } from '../../monitor/run-service.js';
import { type EnvVar, KUBERNETES_DIR, kubernetesFiles, manifestOf, readManifests } from './helpers/manifests.js';

const statefulSet = manifestOf('StatefulSet');
const pod = statefulSet.spec.template.spec;
const container = pod.containers[0]!;
const configMap = manifestOf('ConfigMap');
const secret = manifestOf('Secret');
const monitorYaml = configMap.data['monitor.yaml']!;

function argAfter(flag: string): string | undefined {
  const i = container.args.indexOf(flag);
  return i >= 0 ? container.args[i + 1] : undefined;
}

function env(name: string): EnvVar | undefined {
  return container.env.find((e) => e.name === name);
}

describe('Kubernetes manifests', () => {
  it('every file parses, and kustomization.yaml lists exactly the resource files', () => {
    const files = kubernetesFiles();
    const kustomization = parse(readFileSync(`${KUBERNETES_DIR}kustomization.yaml`, 'utf8')) as { resources: string[] };
    for (const file of files) for (const m of readManifests(file)) expect(m.kind, file).toBeTruthy();
    expect([...kustomization.resources].sort()).toEqual(files.filter((f) => f !== 'kustomization.yaml'));
    for (const resource of kustomization.resources) expect(existsSync(`${KUBERNETES_DIR}${resource}`), resource).toBe(true);
  });

  it('runs non-root with a read-only root filesystem and no privileges', () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(pod.automountServiceAccountToken).toBe(false);
  });

  it('sets resource requests and limits', () => {
    for (const kind of ['requests', 'limits'] as const) {
      expect(container.resources[kind].cpu, kind).toBeTruthy();
      expect(container.resources[kind].memory, kind).toBeTruthy();
    }
  });

  it('probes /-/healthy (liveness, startup) and /-/ready (readiness) on the port it listens on', () => {
    const port = container.ports.find((p) => p.name === 'metrics')!;
    expect(argAfter('--listen')).toBe(`0.0.0.0:${port.containerPort}`);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/-/healthy', port: 'metrics' });
    expect(container.startupProbe.httpGet).toEqual({ path: '/-/healthy', port: 'metrics' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/-/ready', port: 'metrics' });
  });

  it('splits the probes over the replicas with --shard INDEX/COUNT, COUNT equal to replicas', () => {
    expect(argAfter('--shard')).toBe('$(SHARD_INDEX)/$(SHARD_COUNT)');
    expect(env('SHARD_COUNT')?.value).toBe(String(statefulSet.spec.replicas));
    expect(env('SHARD_INDEX')?.valueFrom).toEqual({ fieldRef: { fieldPath: "metadata.labels['apps.kubernetes.io/pod-index']" } });
    expect(statefulSet.spec.replicas).toBeGreaterThan(1);
  });

  it('reads monitor.yaml from the ConfigMap at the path given to --config', () => {
    const volume = pod.volumes.find((v) => v.configMap?.name === configMap.metadata.name)!;
    const mount = container.volumeMounts.find((m) => m.name === volume.name)!;
    expect(argAfter('--config')).toBe(`${mount.mountPath}/monitor.yaml`);
  });

  it('takes every ${VAR} of monitor.yaml from the Secret, and the monitor accepts the config', () => {
    const refs = [...monitorYaml.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    const fakeEnv: Record<string, string> = {};
    for (const name of refs) {
      expect(env(name)?.valueFrom?.secretKeyRef, name).toEqual({ name: secret.metadata.name, key: name });
      expect(Object.keys(secret.stringData ?? secret.data ?? {}), name).toContain(name);
      fakeEnv[name] = `rs_live_${name.toLowerCase()}0000000000000000`;
    }
    const result = parseConfigText(monitorYaml, { env: fakeEnv, baseDir: KUBERNETES_DIR });
    expect(result.ok, result.ok ? '' : formatIssues(result.issues)).toBe(true);
  });

  it('listening beyond loopback, its monitor.yaml sets http.token from the Secret (the monitor refuses otherwise)', () => {
    const listen = parseListen(argAfter('--listen') ?? '');
    if (!listen.ok) throw new Error(listen.message);
    const token = /^\s*token: \$\{([A-Za-z_][A-Za-z0-9_]*)\}\s*$/m.exec(monitorYaml)?.[1];
    expect(token, 'http.token in monitor.yaml').toBeDefined();
    expect(env(token!)?.valueFrom?.secretKeyRef).toEqual({ name: secret.metadata.name, key: token });
    const fakeEnv = Object.fromEntries(
      [...monitorYaml.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => [m[1]!, `rs_live_${m[1]!.toLowerCase()}0000000000000000`]),
    );
    const result = parseConfigText(monitorYaml, { env: fakeEnv, baseDir: KUBERNETES_DIR });
    if (!result.ok) throw new Error(formatIssues(result.issues));
    expect(httpSettings(result.config).token).toBeDefined();
    expect(unprotectedListen(listen.listen.host, listen.listen.port, httpSettings(result.config))).toBeUndefined();
    // Without the token the same manifest would not start: the check above is not vacuous.
    expect(unprotectedListen(listen.listen.host, listen.listen.port, { ...httpSettings(result.config), token: undefined })).toBeDefined();
  });

  it('ships no key: the Secret holds placeholders only, and no env value is a key', () => {
    for (const value of Object.values<string>(secret.stringData ?? {})) expect(value).toBe('REPLACE_ME');
    expect(secret.data).toBeUndefined();
    for (const e of container.env) expect(e.value ?? '').not.toMatch(/^rs_(test|live)_/);
  });

  it('the headless Service, ServiceMonitor and PodDisruptionBudget select the pods and the metrics port', () => {
    const podLabels = statefulSet.spec.template.metadata.labels;
    const service = manifestOf('Service');
    const serviceMonitor = manifestOf('ServiceMonitor');
    const pdb = manifestOf('PodDisruptionBudget');
    expect(service.spec.clusterIP).toBe('None');
    expect(statefulSet.spec.serviceName).toBe(service.metadata.name);
    expect(podLabels).toMatchObject(service.spec.selector);
    expect(podLabels).toMatchObject(statefulSet.spec.selector.matchLabels);
    expect(podLabels).toMatchObject(pdb.spec.selector.matchLabels);
    expect(service.metadata.labels).toMatchObject(serviceMonitor.spec.selector.matchLabels);
    expect(service.spec.ports.map((p) => p.name)).toContain(serviceMonitor.spec.endpoints[0]!.port);
    expect(serviceMonitor.spec.endpoints[0]).toMatchObject({ path: '/metrics', honorLabels: true });
  });
});
