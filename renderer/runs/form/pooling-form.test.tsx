// @vitest-environment happy-dom
/**
 * The run form against an embeddings or rerank target: its batch fields (workload `pooling`), the
 * token stream's fields left out, token SLOs typed earlier said and cleared; against a chat target
 * none of it. The draft's `pooling` is the schema's, refused with its path on the field.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TargetView } from '../../../shared/api.ts';
import type { DialectId } from '../../../shared/dialects.ts';
import { setTransport } from '../../core/api.ts';
import { useAppStore } from '../../core/app-store.ts';
import { FakeTransport } from '../../testing/fake-transport.ts';
import { useRunsStore } from '../run-store.ts';
import { WorkloadForm } from './WorkloadForm.tsx';
import {
  defaultDraft,
  draftToWorkload,
  fieldOfPath,
  validateDraft,
  workloadToDraft,
} from './workload-draft.ts';

const target = (dialect: DialectId): TargetView => ({
  id: `t-${dialect}`,
  name: `sim ${dialect}`,
  baseUrl: 'http://127.0.0.1:8000',
  dialect,
  hasApiKey: false,
  builtin: false,
});

let fake: FakeTransport;
beforeEach(() => {
  fake = new FakeTransport({
    listModels: () => ({ ok: true, value: { models: ['tokenscope-sim'], source: '/v1/models' } }),
  });
  setTransport(fake);
  useRunsStore.setState({
    draft: defaultDraft(),
    startIssues: [],
    starting: false,
    live: null,
    targetId: null,
  });
});
afterEach(() => {
  cleanup();
  setTransport(null);
});

function renderFor(dialect: DialectId) {
  useAppStore.setState({ targets: [target(dialect)], targetsLoaded: true, selectedTargetId: null });
  return render(<WorkloadForm />);
}

/** The fields only a token stream uses. */
const STREAM_ONLY = [
  'Output tokens distribution',
  'Force output length',
  'Temperature',
  'Max tokens',
  'TTFT SLO (ms)',
];

describe('the run form and a non-streaming target', () => {
  it('embeddings: inputs per request, and none of the token stream’s fields', async () => {
    renderFor('openai-embeddings');
    await waitFor(() => expect(useRunsStore.getState().draft.model).toBe('tokenscope-sim'));
    expect(screen.getByTestId('run-pool-batch-size')).toBeTruthy();
    expect(screen.queryByTestId('run-pool-documents')).toBeNull();
    for (const label of STREAM_ONLY) expect(screen.queryByLabelText(label), label).toBeNull();
    expect(screen.queryByTestId('run-image-count')).toBeNull();
    expect(screen.getByLabelText('Input tokens distribution')).toBeTruthy();
    expect(screen.getByLabelText('E2E SLO (ms)')).toBeTruthy();
    expect(screen.getByTestId('run-pool-note').textContent).toMatch(/not streamed/);
    fireEvent.change(screen.getByTestId('run-pool-batch-size'), { target: { value: '16' } });
    fake.handlers.startRun = () => ({ ok: true, value: { runId: 'r', key: 'k.jsonl' } });
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'startRun')).toBe(true));
    const call = fake.calls.find((c) => c.method === 'startRun')!;
    const w = (call.args[0] as { workload: Record<string, unknown> }).workload;
    expect(w.pooling).toEqual({ batchSize: 16, documents: 8, documentLen: 128 });
  });

  it('rerank: documents per query, their length, top N', async () => {
    renderFor('rerank');
    await waitFor(() => expect(useRunsStore.getState().draft.model).toBe('tokenscope-sim'));
    for (const id of ['run-pool-documents', 'run-pool-document-len', 'run-pool-top-n'])
      expect(screen.getByTestId(id), id).toBeTruthy();
    expect(screen.queryByTestId('run-pool-batch-size')).toBeNull();
  });

  it('a TTFT SLO typed earlier is said (every request would miss it) and cleared on demand', async () => {
    useRunsStore.setState({ draft: { ...defaultDraft(), sloTtftMs: '200' } });
    renderFor('openai-embeddings');
    expect(screen.getByTestId('slo-token-note').textContent).toMatch(
      /^TTFT ≤ 200 ms set: this target answers whole/,
    );
    fireEvent.click(screen.getByTestId('slo-token-clear'));
    expect(useRunsStore.getState().draft.sloTtftMs).toBe('');
    expect(screen.queryByTestId('slo-token-note')).toBeNull();
  });

  it('a chat target: no batch fields, every stream field there', async () => {
    renderFor('openai-chat');
    await waitFor(() => expect(useRunsStore.getState().draft.model).toBe('tokenscope-sim'));
    expect(screen.queryByTestId('run-pooling')).toBeNull();
    for (const label of STREAM_ONLY) expect(screen.getByLabelText(label), label).toBeTruthy();
  });
});

describe('the draft’s pooling part', () => {
  it('defaults write nothing; a change writes the whole part; a loaded one round-trips', () => {
    expect(draftToWorkload(defaultDraft()).pooling).toBeUndefined();
    const d = { ...defaultDraft(), poolDocuments: '16', poolTopN: '4' };
    const w = draftToWorkload(d);
    expect(w.pooling).toEqual({ batchSize: 1, documents: 16, documentLen: 128, topN: 4 });
    const back = workloadToDraft(w);
    expect([back.poolBatchSize, back.poolDocuments, back.poolDocumentLen, back.poolTopN]).toEqual([
      '1',
      '16',
      '128',
      '4',
    ]);
  });

  it('the schema refuses what pooling.ts caps, on the field it came from', () => {
    const issues = validateDraft({ ...defaultDraft(), poolBatchSize: '5000' });
    const i = issues.find((x) => x.path === 'pooling.batchSize');
    expect(i?.message).toMatch(/4096/);
    expect(fieldOfPath('pooling.batchSize')).toBe('poolBatchSize');
    expect(fieldOfPath('pooling.documentLen')).toBe('poolDocumentLen');
    expect(fieldOfPath('pooling.topN')).toBe('poolTopN');
    expect(validateDraft({ ...defaultDraft(), poolTopN: '0' }).some((x) => x.path === 'pooling.topN')).toBe(
      true,
    );
  });
});
