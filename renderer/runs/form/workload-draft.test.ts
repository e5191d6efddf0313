import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../shared/runs/workload/workload.ts';
import {
  defaultDraft,
  draftToWorkload,
  fieldOfPath,
  issuesOfMessage,
  otlpListenOf,
  validateDraft,
  workloadToDraft,
  type WorkloadDraft,
} from './workload-draft.ts';
import { setDraft, useRunsStore } from '../run-store.ts';

describe('workload draft', () => {
  it('defaults to a valid run: 200 requests, concurrency 32, rate ∞, 128 in / 64 out', () => {
    const d = defaultDraft();
    expect(validateDraft(d)).toEqual([]);
    const r = parseWorkload(draftToWorkload(d));
    if (!r.ok) throw new Error('invalid');
    expect(r.value.requests).toBe(200);
    expect(r.value.maxConcurrency).toBe(32);
    expect(r.value.rate).toBe('inf');
    expect(r.value.prompts).toEqual({
      type: 'synthetic',
      inputLen: { type: 'fixed', value: 128 },
      outputLen: { type: 'fixed', value: 64 },
      force: 'ignore_eos',
    });
    expect(r.value.slo).toBeUndefined();
    expect(r.value.durationS).toBeUndefined();
  });

  it('maps every form field into the workload file', () => {
    const d = {
      ...defaultDraft(),
      name: 'x',
      stopBy: 'both' as const,
      durationS: '30',
      maxConcurrency: '',
      rate: '4.5',
      arrival: 'gamma' as const,
      burstiness: '0.5',
      rampUpS: '10',
      rampStartRate: '1',
      warmup: '3',
      seed: '7',
      inputLen: { type: 'uniform' as const, value: '', min: '100', max: '200', mean: '', std: '' },
      outputLen: { type: 'normal' as const, value: '', min: '', max: '400', mean: '128', std: '16' },
      force: 'min_tokens' as const,
      temperature: '0.7',
      maxTokens: '256',
      sloTtftMs: '500',
      sloTpotMs: '50',
      continuousUsage: true,
    };
    const r = parseWorkload(draftToWorkload(d));
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    const w = r.value;
    expect(w).toMatchObject({
      name: 'x',
      requests: 200,
      durationS: 30,
      maxConcurrency: null,
      rate: 4.5,
      arrival: 'gamma',
      burstiness: 0.5,
      warmup: 3,
      seed: 7,
      continuousUsage: true,
    });
    expect(w.rampUp).toEqual({ startRate: 1, durationS: 10 });
    expect(w.prompts).toEqual({
      type: 'synthetic',
      inputLen: { type: 'uniform', min: 100, max: 200 },
      outputLen: { type: 'normal', mean: 128, std: 16, max: 400 },
      force: 'min_tokens',
    });
    expect(w.sampling).toEqual({ temperature: 0.7, maxTokens: 256 });
    expect(w.slo).toEqual({ ttftMs: 500, tpotMs: 50 });
  });

  it('round-trips through a workload file, keeping fields the form does not show', () => {
    const file = {
      version: 1,
      name: 'chat 4 rps',
      target: { url: 'http://gpu:8000', dialect: 'openai-chat', model: 'Qwen/Qwen3-8B' },
      requests: 500,
      maxConcurrency: 64,
      rate: 4,
      burstiness: 1,
      warmup: 8,
      prompts: {
        type: 'synthetic',
        inputLen: { type: 'uniform', min: 900, max: 1100 },
        outputLen: 128,
        prefix: 'SYSTEM: ',
      },
      sampling: { temperature: 0, topP: 0.9 },
      extraBody: { top_k: 5 },
      timeoutMs: 60000,
      slo: { ttftMs: 500 },
    };
    const d = workloadToDraft(file);
    expect(d.extraBody).toBe('{"top_k":5}');
    expect(d.model).toBe('Qwen/Qwen3-8B');
    expect(d.rate).toBe('4');
    expect(d.inputLen).toMatchObject({ type: 'uniform', min: '900', max: '1100' });
    expect(d.outputLen).toMatchObject({ type: 'fixed', value: '128' });
    const back = draftToWorkload(d, {
      url: 'http://gpu:8000',
      dialect: 'openai-chat',
      model: 'Qwen/Qwen3-8B',
    });
    const a = parseWorkload(file);
    const b = parseWorkload(back);
    if (!a.ok || !b.ok) throw new Error('invalid');
    expect(b.value).toEqual(a.value);
  });

  it('trace headers: absent in the workload when on (the default), traceHeaders false when off, and back', () => {
    expect(draftToWorkload(defaultDraft()).traceHeaders).toBeUndefined();
    const off = draftToWorkload({ ...defaultDraft(), traceHeaders: false });
    expect(off.traceHeaders).toBe(false);
    expect(parseWorkload(off).ok).toBe(true);
    expect(workloadToDraft(off).traceHeaders).toBe(false);
    expect(workloadToDraft(draftToWorkload(defaultDraft())).traceHeaders).toBe(true);
  });

  it('extra body: a JSON object merged into every request; anything else is refused at extraBody', () => {
    const w = draftToWorkload({
      ...defaultDraft(),
      extraBody: ' {"sim_fault": "reset:20@0.1", "top_p": 0.9} ',
    });
    expect(w.extraBody).toEqual({ sim_fault: 'reset:20@0.1', top_p: 0.9 });
    expect(draftToWorkload(defaultDraft())).not.toHaveProperty('extraBody');
    // Emptying the field removes what a loaded file had.
    const loaded = workloadToDraft({ requests: 5, extraBody: { top_k: 5 } });
    expect(draftToWorkload({ ...loaded, extraBody: '' })).not.toHaveProperty('extraBody');
    for (const [text, why] of [
      ['{"top_k": 5', /^not JSON: /],
      ['[1, 2]', /must be a JSON object/],
      ['42', /must be a JSON object/],
      ['null', /must be a JSON object/],
    ] as const) {
      const issues = validateDraft({ ...defaultDraft(), extraBody: text });
      expect(issues, text).toHaveLength(1);
      expect(issues[0]!.path).toBe('extraBody');
      expect(issues[0]!.message).toMatch(why);
    }
    expect(fieldOfPath('extraBody')).toBe('extraBody');
  });

  it('reports bad fields with their paths, and maps the paths to the form fields', () => {
    const issues = validateDraft({
      ...defaultDraft(),
      requests: '0',
      maxConcurrency: 'x',
      outputLen: { type: 'uniform', value: '', min: '50', max: '10', mean: '', std: '' },
    });
    const paths = issues.map((i) => i.path);
    expect(paths).toContain('requests');
    expect(paths).toContain('maxConcurrency');
    expect(paths).toContain('prompts.outputLen.max');
    expect(fieldOfPath('prompts.outputLen.max')).toBe('outputLen');
    expect(fieldOfPath('slo.ttftMs')).toBe('sloTtftMs');
    expect(fieldOfPath('rampUp')).toBe('rampUpS');
    expect(validateDraft({ ...defaultDraft(), rate: 'inf', rampUpS: '10' }).map((i) => i.path)).toEqual([
      'rampUp',
    ]);
  });

  it("splits the core's error message into issues with paths", () => {
    expect(
      issuesOfMessage(
        'bad workload: requests: Too small: expected number to be >=1; (workload): set requests, durationS or both',
      ),
    ).toEqual([
      { path: 'requests', message: 'Too small: expected number to be >=1' },
      { path: '', message: 'set requests, durationS or both' },
    ]);
    expect(issuesOfMessage('a run is already going (x.jsonl)')).toEqual([
      { path: '', message: 'a run is already going (x.jsonl)' },
    ]);
  });
});

describe('validation in plain words, cleared when fixed', () => {
  it('says what to enter, not the schema’s words', () => {
    const d = defaultDraft();
    const msg = (patch: Partial<WorkloadDraft>) =>
      validateDraft({ ...d, ...patch }).map((i) => [i.path, i.message]);
    expect(msg({ requests: '0' })).toEqual([['requests', 'At least 1.']]);
    expect(msg({ requests: '1.5' })).toEqual([['requests', 'Enter a whole number.']]);
    expect(msg({ requests: '99999999999' })).toEqual([['requests', 'At most 10,000,000.']]);
    expect(msg({ seed: 'x' })).toEqual([['seed', 'Enter a number.']]);
    expect(msg({ rate: 'fast' })).toEqual([['rate', 'Requests per second (above 0), or ∞.']]);
    expect(msg({ burstiness: '0' })).toEqual([['burstiness', 'More than 0.']]);
    for (const [, m] of [...msg({ requests: '0' }), ...msg({ seed: 'x' })])
      expect(m).not.toMatch(/Invalid input|expected/);
  });

  it('a message goes away as soon as its field is valid; others stay', () => {
    useRunsStore.setState({ draft: defaultDraft(), startIssues: [] });
    setDraft({ requests: '0', seed: 'x' });
    expect(useRunsStore.getState().startIssues).toEqual([]); // nothing shown before a start
    useRunsStore.setState({ startIssues: validateDraft(useRunsStore.getState().draft) });
    expect(
      useRunsStore
        .getState()
        .startIssues.map((i) => i.path)
        .sort(),
    ).toEqual(['requests', 'seed']);
    setDraft({ requests: '10' });
    expect(useRunsStore.getState().startIssues.map((i) => i.path)).toEqual(['seed']);
    setDraft({ seed: '3' });
    expect(useRunsStore.getState().startIssues).toEqual([]);
  });
});

describe('prefix cache fields', () => {
  it('groups, cache busting and the reset go to the workload and come back', () => {
    const g = draftToWorkload({
      ...defaultDraft(),
      prefixMode: 'groups',
      prefixGroups: '4',
      prefixLen: '256',
      resetPrefixCache: true,
    });
    expect(g.prompts).toMatchObject({ type: 'synthetic', prefixGroups: { groups: 4, prefixLen: 256 } });
    expect(g.resetPrefixCache).toBe(true);
    expect(workloadToDraft(g)).toMatchObject({
      prefixMode: 'groups',
      prefixGroups: '4',
      prefixLen: '256',
      resetPrefixCache: true,
    });
    const b = draftToWorkload({ ...defaultDraft(), prefixMode: 'bust' });
    expect(b.prompts).toMatchObject({ cacheBust: true });
    expect(workloadToDraft(b).prefixMode).toBe('bust');
    const none = draftToWorkload(defaultDraft());
    expect(none.resetPrefixCache).toBeUndefined();
    expect(none.prompts).not.toHaveProperty('prefixGroups');
  });

  it('a bad prefix length is reported at its field', () => {
    const issues = validateDraft({ ...defaultDraft(), prefixMode: 'groups', prefixLen: '0' });
    expect(issues.map((i) => fieldOfPath(i.path))).toContain('prefixLen');
  });
});

describe('the trace receiver option', () => {
  it('is off by default; on, it asks for the port typed, and refuses one out of range at its field', () => {
    expect(otlpListenOf(defaultDraft())).toBeUndefined();
    const on = { ...defaultDraft(), otlpListen: true };
    expect(otlpListenOf(on)).toEqual({ port: 4318 });
    expect(validateDraft(on)).toEqual([]);
    for (const bad of ['0', '65536', '43.5', '', 'x']) {
      const d = { ...on, otlpPort: bad };
      expect(otlpListenOf(d), bad).toBeUndefined();
      expect(
        validateDraft(d).map((i) => fieldOfPath(i.path)),
        bad,
      ).toEqual(['otlpPort']);
    }
    // Off, a bad port is not in the way.
    expect(validateDraft({ ...defaultDraft(), otlpPort: 'x' })).toEqual([]);
  });

  it("puts the core's refusal to listen at the port field", () => {
    const [i] = issuesOfMessage('cannot listen for server traces on 127.0.0.1:4318: the port is taken');
    expect(fieldOfPath(i!.path)).toBe('otlpPort');
  });
});
