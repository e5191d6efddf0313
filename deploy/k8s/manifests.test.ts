/**
 * The Kubernetes manifests, checked against the Kubernetes API's OpenAPI schemas (the
 * kubernetes-models classes validate with them: types, enums, required fields), and against each
 * other: N the same in completions, parallelism and SHARDS; every volume, claim and ConfigMap they
 * name exists; the workload parses; the merge's wait script runs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseWorkload } from '../../shared/runs/workload/workload.ts';
import { tmpDir } from '../../electron/testing/runs.ts';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;
/** kubernetes-models/<group>/<version>/<Kind>: its class (loaded by require: typed here, not by the package). */
function modelOf(apiVersion: string, kind: string): ModelClass {
  const group = apiVersion.includes('/') ? apiVersion : `v1`;
  return (require(`kubernetes-models/${group}/${kind}`) as Record<string, ModelClass>)[kind]!;
}

type Obj = Record<string, unknown>;
interface Manifest {
  file: string;
  doc: Obj & { apiVersion: string; kind: string; metadata: { name: string } };
}
const manifests: Manifest[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((file) =>
    parseAllDocuments(readFileSync(path.join(DIR, file), 'utf8')).map((d) => ({
      file,
      doc: d.toJS() as Manifest['doc'],
    })),
  );
const named = (kind: string, name: string): Obj => {
  const m = manifests.find((x) => x.doc.kind === kind && x.doc.metadata.name === name);
  if (!m) throw new Error(`no ${kind} ${name}`);
  return m.doc;
};

interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: Obj }[];
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: { name: string; persistentVolumeClaim?: { claimName: string }; configMap?: { name: string } }[];
}
const podSpecOf = (doc: Obj): PodSpec =>
  doc.kind === 'Pod'
    ? (doc.spec as PodSpec)
    : ((doc.spec as { template: { spec: PodSpec } }).template.spec as PodSpec);
const envOf = (c: Container, name: string): string | undefined => c.env?.find((e) => e.name === name)?.value;

describe('deploy/k8s', () => {
  it('has the PVC, the workload, the shards and merge Jobs and the fetch pod', () => {
    expect(manifests.map((m) => `${m.doc.kind}/${m.doc.metadata.name}`).sort()).toEqual([
      'ConfigMap/tokenscope-workload',
      'Job/tokenscope-merge',
      'Job/tokenscope-shards',
      'PersistentVolumeClaim/tokenscope-runs',
      'Pod/tokenscope-fetch',
    ]);
  });

  for (const m of manifests)
    it(`${m.file}: ${m.doc.kind} ${m.doc.metadata.name} validates against the Kubernetes schema`, () => {
      expect(() => new (modelOf(m.doc.apiVersion, m.doc.kind))(m.doc).validate()).not.toThrow();
    });

  it('the schema check can fail: a wrong completionMode, a number where a string goes', () => {
    const job = structuredClone(named('Job', 'tokenscope-shards')) as { spec: Obj };
    job.spec.completionMode = 'Indexd';
    expect(() => new (modelOf('batch/v1', 'Job'))(job).validate()).toThrow(/completionMode/);
    const pod = structuredClone(named('Pod', 'tokenscope-fetch')) as { spec: { containers: Obj[] } };
    pod.spec.containers[0]!.command = ['sleep', 3600];
    expect(() => new (modelOf('v1', 'Pod'))(pod).validate()).toThrow(/command/);
  });

  it('the shards Job is Indexed with completions = parallelism = SHARDS, and passes its index as --shard', () => {
    const job = named('Job', 'tokenscope-shards') as { spec: Obj };
    const c = podSpecOf(job).containers[0]!;
    expect(job.spec.completionMode).toBe('Indexed');
    expect(job.spec.completions).toBe(job.spec.parallelism);
    expect(String(job.spec.completions)).toBe(envOf(c, 'SHARDS'));
    expect(c.args!.join(' ')).toContain('--shard "$JOB_COMPLETION_INDEX/$SHARDS"');
    expect(c.args!.join(' ')).toContain('--start-at "$START_AT"');
    const merge = podSpecOf(named('Job', 'tokenscope-merge'));
    expect(envOf(merge.initContainers![0]!, 'SHARDS')).toBe(envOf(c, 'SHARDS'));
  });

  it('every mount has its volume, every claim and ConfigMap exists, one image everywhere', () => {
    const images = new Set<string>();
    for (const m of manifests.filter((x) => ['Job', 'Pod'].includes(x.doc.kind))) {
      const spec = podSpecOf(m.doc);
      const volumes = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
      for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
        images.add(c.image);
        for (const vm of c.volumeMounts ?? [])
          expect(volumes.has(vm.name), `${m.file}: ${vm.name}`).toBe(true);
      }
      for (const v of volumes.values()) {
        if (v.persistentVolumeClaim) named('PersistentVolumeClaim', v.persistentVolumeClaim.claimName);
        if (v.configMap) named('ConfigMap', v.configMap.name);
      }
    }
    expect([...images]).toEqual(['tokenscope:0.1.0']);
    const pvc = named('PersistentVolumeClaim', 'tokenscope-runs') as { spec: { accessModes: string[] } };
    expect(pvc.spec.accessModes).toContain('ReadWriteMany'); // shards on several nodes write at once
  });

  it('the workload in the ConfigMap is a valid Tokenscope workload', () => {
    const cm = named('ConfigMap', 'tokenscope-workload') as { data: Record<string, string> };
    const raw = parseAllDocuments(cm.data['workload.yaml']!)[0]!.toJS() as unknown;
    const w = parseWorkload(raw);
    expect(w.ok, JSON.stringify(!w.ok && w.error)).toBe(true);
  });

  it("the merge's wait script waits for every shard's summary line, and gives up after WAIT_S", () => {
    const init = podSpecOf(named('Job', 'tokenscope-merge')).initContainers![0]!;
    const script = init.args![0]!;
    const runs = tmpDir('tokenscope-k8s-');
    mkdirSync(path.join(runs, 'r1'));
    const sh = (env: Record<string, string>): string =>
      execFileSync('sh', ['-c', script.replaceAll('/runs/', `${runs}/`)], {
        env: { PATH: process.env.PATH, SHARDS: '2', RUN: 'r1', ...env },
        encoding: 'utf8',
        timeout: 20_000,
      });
    writeFileSync(path.join(runs, 'r1/shard-0.jsonl'), '{"type":"header"}\n{"type":"summary"}\n');
    expect(sh({ WAIT_S: '0' })).toMatch(/shard 1 not finished after 0 s/);
    writeFileSync(path.join(runs, 'r1/shard-1.jsonl'), '{"type":"header"}\n{"type":"summary"}\n');
    expect(sh({ WAIT_S: '60' })).toMatch(/all 2 shards finished/);
  });
});
