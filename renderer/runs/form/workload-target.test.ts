import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TargetView } from '../../../shared/api.ts';
import { useAppStore } from '../../core/app-store.ts';
import { useRunsStore } from '../run-store.ts';
import { addFileTarget, prefillOf, targetOutcome } from './workload-target.ts';

const view = (id: string, name: string, baseUrl: string, extra: Partial<TargetView> = {}): TargetView => ({
  id,
  name,
  baseUrl,
  dialect: 'openai-chat',
  hasApiKey: false,
  builtin: false,
  ...extra,
});
const sim = view('sim', 'Built-in simulator', 'http://127.0.0.1:4000', { builtin: true });
const gpu = view('gpu', 'GPU box', 'http://gpu:8000/v1');

afterEach(() => {
  useAppStore.setState({ editing: null, newTargetPrefill: null, targets: [] });
  useRunsStore.setState({ targetId: null, message: null });
});

describe("a workload file's target in the app", () => {
  it('no target: loaded, the form keeps its own target, the file model kept', () => {
    const o = targetOutcome('w.json', undefined, [sim, gpu], sim, vi.fn());
    expect(o).toEqual({ message: { tone: 'info', text: 'Loaded w.json.' }, model: '' });
  });

  it('one of yours (another spelling of its URL): selected, with the file model', () => {
    const o = targetOutcome(
      'w.yaml',
      { url: 'http://GPU:8000', model: 'Qwen/Qwen3-8B' },
      [sim, gpu],
      sim,
      vi.fn(),
    );
    expect(o.targetId).toBe('gpu');
    expect(o.model).toBe('Qwen/Qwen3-8B');
    expect(o.message.tone).toBe('info');
    expect(o.message.text).toBe(
      'Loaded w.yaml; its target http://GPU:8000 is your “GPU box”, now selected, model Qwen/Qwen3-8B.',
    );
  });

  it('not one of yours: says where the run would go, drops the foreign model, offers to add it', () => {
    const add = vi.fn();
    const raw = { url: 'http://user:pw@other:9000', dialect: 'openai-completions', model: 'm' };
    const o = targetOutcome('w.json', raw, [sim, gpu], sim, add);
    expect(o.targetId).toBeUndefined();
    expect(o.model).toBe('');
    expect(o.message.tone).toBe('warn');
    expect(o.message.text).toBe(
      'Loaded w.json. Its target http://***:***@other:9000 (OpenAI completions, model m) is not one of your targets: the run would go to “Built-in simulator”.',
    );
    o.message.action!.run();
    expect(add).toHaveBeenCalledWith({
      url: 'http://user:pw@other:9000',
      dialect: 'openai-completions',
      model: 'm',
    });
    // The same URL in another dialect is another endpoint: not a match either.
    expect(
      targetOutcome('w.json', { url: 'http://gpu:8000', dialect: 'ollama-chat' }, [gpu], gpu, add).targetId,
    ).toBeUndefined();
  });

  it('a target that is not usable is ignored, and said so', () => {
    const o = targetOutcome('w.json', { url: 'not a url' }, [sim], sim, vi.fn());
    expect(o.message.tone).toBe('warn');
    expect(o.message.text).toMatch(
      /^Loaded w\.json; its target is not usable \(.+\) and is ignored: the run goes to “Built-in simulator”\.$/,
    );
    expect(o.targetId).toBeUndefined();
  });

  it('adding it opens the editor filled in; once saved, the form runs on it with the file model', () => {
    const t = {
      url: 'http://other:9000',
      dialect: 'openai-chat' as const,
      model: 'm',
      headers: { 'X-Team': 'a' },
      insecureTls: true,
    };
    expect(prefillOf(t)).toEqual({
      name: 'other:9000',
      baseUrl: 'http://other:9000',
      dialect: 'openai-chat',
      defaultModel: 'm',
      insecureTls: true,
      headers: [{ key: 'X-Team', value: 'a' }],
    });
    useAppStore.setState({ targets: [sim] });
    addFileTarget(t);
    expect(useAppStore.getState().editing).toBe('new');
    expect(useAppStore.getState().newTargetPrefill?.baseUrl).toBe('http://other:9000');
    // The editor saves (the list refreshes), then closes.
    useAppStore.setState({ targets: [sim, view('new1', 'other:9000', 'http://other:9000')] });
    useAppStore.setState({ editing: null, newTargetPrefill: null });
    expect(useRunsStore.getState().targetId).toBe('new1');
    expect(useRunsStore.getState().draft.model).toBe('m');
  });

  it('adding it, then cancelling: the form keeps its target', () => {
    useAppStore.setState({ targets: [sim] });
    useRunsStore.setState({ targetId: 'sim' });
    addFileTarget({ url: 'http://other:9000', dialect: 'openai-chat' });
    useAppStore.setState({ editing: null, newTargetPrefill: null });
    expect(useRunsStore.getState().targetId).toBe('sim');
  });
});
