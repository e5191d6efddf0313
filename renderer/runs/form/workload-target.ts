/**
 * A loaded workload file's `target` in the app: the run form takes the user's target that is the
 * same endpoint in the same dialect, or says the file's target is not one of theirs (the run would
 * go elsewhere) and offers to add it, filled in from the file. `tokenscope run` sends to the
 * file's target directly; the app runs only on saved targets, whose keys it holds.
 */
import { DIALECT_LABELS } from '../../../shared/dialects.ts';
import { matchTarget } from '../../../shared/endpoint.ts';
import { redactUrlString } from '../../../shared/redact.ts';
import { WorkloadTarget } from '../../../shared/runs/workload/workload.ts';
import type { TargetView } from '../../../shared/api.ts';
import type { TargetForm } from '../../targets/target-input.ts';
import { useAppStore } from '../../core/app-store.ts';
import { useRunsStore, type RunsMessage } from '../run-store.ts';

export type FileTarget = ReturnType<typeof WorkloadTarget.parse>;

/** What loading a workload file does about its target: the message, and the form's target/model. */
export interface TargetOutcome {
  message: RunsMessage;
  /** The runs form's target to select (undefined: leave it). */
  targetId?: string;
  /** The model to put in the form ('' = the target's default). */
  model: string;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The new-target form filled in from a file's target (no secrets: a workload file holds none). @internal exported for its tests */
export function prefillOf(t: FileTarget): Partial<TargetForm> {
  return {
    name: hostOf(t.url),
    baseUrl: t.url,
    dialect: t.dialect,
    defaultModel: t.model ?? '',
    insecureTls: t.insecureTls ?? false,
    headers: Object.entries(t.headers ?? {}).map(([key, value]) => ({ key, value })),
  };
}

/** Decides from the file's raw `target` and the user's targets (pure; `addTarget` is the message's button). */
export function targetOutcome(
  fileName: string,
  raw: unknown,
  targets: readonly TargetView[],
  current: TargetView | null,
  addTarget: (t: FileTarget) => void,
): TargetOutcome {
  const rawModel =
    typeof raw === 'object' && raw !== null && typeof (raw as { model?: unknown }).model === 'string'
      ? (raw as { model: string }).model
      : '';
  if (raw === undefined) return { message: { tone: 'info', text: `Loaded ${fileName}.` }, model: rawModel };
  const parsed = WorkloadTarget.safeParse(raw);
  if (!parsed.success)
    return {
      message: {
        tone: 'warn',
        text: `Loaded ${fileName}; its target is not usable (${parsed.error.issues[0]?.message ?? 'invalid'}) and is ignored: the run goes to “${current?.name ?? 'no target'}”.`,
      },
      model: '',
    };
  const t = parsed.data;
  // As the file spells it, credentials masked (no slash added where the file had none).
  const url = t.url.endsWith('/') ? redactUrlString(t.url) : redactUrlString(t.url).replace(/\/$/, '');
  const match = matchTarget(targets, t);
  if (match)
    return {
      message: {
        tone: 'info',
        text: `Loaded ${fileName}; its target ${url} is your “${match.name}”, now selected${t.model ? `, model ${t.model}` : ''}.`,
      },
      targetId: match.id,
      model: t.model ?? '',
    };
  return {
    message: {
      tone: 'warn',
      text: `Loaded ${fileName}. Its target ${url} (${DIALECT_LABELS[t.dialect]}${t.model ? `, model ${t.model}` : ''}) is not one of your targets: the run would go to “${current?.name ?? 'no target'}”.`,
      action: { label: 'Add it as a target…', run: () => addTarget(t), testId: 'runs-add-file-target' },
    },
    // The file's model belongs to its server: the current target keeps its own.
    model: '',
  };
}

/**
 * Opens the target editor filled in from the file's target; once it closes, the runs form takes
 * the saved target (if the user saved it).
 */
export function addFileTarget(t: FileTarget): void {
  useAppStore.setState({ editing: 'new', newTargetPrefill: prefillOf(t) });
  const stop = useAppStore.subscribe((s) => {
    if (s.editing !== null) return;
    stop();
    const saved = matchTarget(s.targets, t);
    if (!saved) return;
    useRunsStore.setState((r) => ({
      targetId: saved.id,
      draft: { ...r.draft, model: t.model ?? '' },
      message: { tone: 'info', text: `The run form now runs on “${saved.name}”.` },
    }));
  });
}
