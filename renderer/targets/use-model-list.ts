/**
 * The model list of a target (listModels: /v1/models or Ollama's /api/tags), cached per server
 * for the session and loaded again on demand; a stale answer for a target since changed is dropped.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TargetView } from '../../shared/api.ts';
import { api } from '../core/api.ts';

interface ListState {
  targetId: string | null;
  loading: boolean;
  models: string[];
  source: string | null;
  error: string | null;
}

const cache = new Map<string, { models: string[]; source: string }>();

/** The target's list (loaded when the target changes), its models (none of another target's), and `load(force)` to refresh. */
export function useModelList(target: TargetView | null): {
  list: ListState;
  models: string[];
  load: (force: boolean) => Promise<void>;
} {
  const targetId = target?.id ?? null;
  // What the list depends on: a target saved with another URL, dialect or key lists again (the
  // old list, or its error, is not this server's).
  const listKey = target
    ? `${target.id}|${target.baseUrl}|${target.dialect}|${target.hasApiKey ? 'key' : ''}`
    : null;
  const currentKey = useRef(listKey);
  currentKey.current = listKey;
  const [list, setList] = useState<ListState>({
    targetId: null,
    loading: false,
    models: [],
    source: null,
    error: null,
  });

  const load = useCallback(
    async (force: boolean) => {
      if (!targetId || !listKey) return;
      const hit = cache.get(listKey);
      if (hit && !force) {
        setList({ targetId, loading: false, models: hit.models, source: hit.source, error: null });
        return;
      }
      // Another target's list must not stand in for this one's while it loads (its first model
      // would be picked for a server that may not serve it).
      setList((l) =>
        l.targetId === targetId
          ? { ...l, loading: true, error: null }
          : { targetId, loading: true, models: [], source: null, error: null },
      );
      const r = await api.listModels(targetId);
      if (currentKey.current !== listKey) return; // the target changed meanwhile: a stale answer
      if (r.ok) {
        cache.set(listKey, r.value);
        setList({ targetId, loading: false, models: r.value.models, source: r.value.source, error: null });
      } else {
        setList({ targetId, loading: false, models: [], source: null, error: r.error.message });
      }
    },
    [targetId, listKey],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  const models = list.targetId === targetId ? list.models : [];
  return { list, models, load };
}
