/**
 * The run form's tool calls (workload `tools`, the `tools` prompt source; docs/load.md "Tool calls
 * and agentic loops"): which tool-calling dataset, tool_choice, tools offered with every request,
 * and agentic sessions (steps cap, the tool's latency fixed or drawn, its result's size).
 * Conversions and checks: tool-draft.ts.
 */
import { Field } from '../../core/form/Field.tsx';
import { CheckRow } from '../../core/form/CheckRow.tsx';
import { setDraft } from '../run-store.ts';
import { Num } from './Num.tsx';
import type { ToolDraft } from './tool-draft.ts';
import type { WorkloadDraft } from './workload-draft.ts';

type Props = { d: WorkloadDraft; errors: Map<string, string> };

/** With the tool-calling prompt source: the built-in dataset or the user's JSONL, and output tokens. */
export function ToolDatasetFields({ d, errors }: Props) {
  const file = d.toolDataset === 'file';
  return (
    <>
      <div className="field-pair">
        <Field
          label="Tool dataset"
          hint={
            file
              ? 'your JSONL: one {"prompt", "tools", "tool_choice"?, "output_len"?} per line'
              : '10 prompts over 5 tools, arguments from a city name to a report'
          }
          wrap
        >
          <select
            aria-label="Tool dataset"
            data-testid="run-tool-dataset"
            value={d.toolDataset}
            onChange={(e) => setDraft({ toolDataset: e.target.value === 'file' ? 'file' : 'builtin' })}
          >
            <option value="builtin">built-in</option>
            <option value="file">my JSONL file</option>
          </select>
        </Field>
        <Field label="Output tokens" error={errors.get('outputLen')} hint="empty: each line's own">
          <Num k="fileOutputLen" label="Output tokens (files)" errors={errors} />
        </Field>
      </div>
      {file && (
        <Field
          label="Tools JSONL path (on the core's machine)"
          error={errors.get('path')}
          hint="absolute, or relative to the runs folder"
        >
          <input
            aria-label="Tools JSONL path"
            data-testid="run-tool-path"
            value={d.path}
            onChange={(e) => setDraft({ path: e.target.value })}
            aria-invalid={errors.has('path') || undefined}
          />
        </Field>
      )}
    </>
  );
}

const CHOICE_HINT: Record<ToolDraft['toolChoice'], string> = {
  auto: 'tool_choice auto: the model decides',
  required: 'every answer calls a tool (Anthropic: any)',
  none: 'tools are offered, never called',
  named: 'every answer calls this tool',
};

/** tool_choice, tools offered with every request, and agentic sessions. */
export function ToolFields({ d, errors }: Props) {
  const used = d.source === 'tools' || d.agentic || d.toolDefs.trim() !== '' || d.toolChoice !== 'auto';
  return (
    <details className="sub" open={used || undefined}>
      <summary>Tool calls and agentic sessions</summary>
      <div className="field-pair">
        <Field label="Tool choice" error={errors.get('toolChoice')} hint={CHOICE_HINT[d.toolChoice]} wrap>
          <select
            aria-label="Tool choice"
            data-testid="run-tool-choice"
            value={d.toolChoice}
            aria-invalid={errors.has('toolChoice') || undefined}
            onChange={(e) => setDraft({ toolChoice: e.target.value as ToolDraft['toolChoice'] })}
          >
            <option value="auto">auto</option>
            <option value="required">required</option>
            <option value="none">none</option>
            <option value="named">a named tool…</option>
          </select>
        </Field>
        {d.toolChoice === 'named' && (
          <Field label="Tool name" error={errors.get('toolChoiceName')}>
            <input
              aria-label="Tool choice name"
              data-testid="run-tool-choice-name"
              value={d.toolChoiceName}
              placeholder="get_weather"
              aria-invalid={errors.has('toolChoiceName') || undefined}
              onChange={(e) => setDraft({ toolChoiceName: e.target.value })}
            />
          </Field>
        )}
      </div>
      <Field
        label="Tool definitions (JSON array, offered with every request)"
        error={errors.get('toolDefs')}
        hint={
          d.source === 'tools'
            ? "added to each dataset line's own tools; empty: the lines' tools only"
            : 'name, description, parameters (a JSON schema); empty: none unless the prompt source is the tool-calling dataset'
        }
        wrap
      >
        <textarea
          className="mono"
          aria-label="Tool definitions JSON"
          data-testid="run-tool-defs"
          rows={2}
          spellCheck={false}
          placeholder='[{"name": "get_weather", "parameters": {"type": "object"}}]'
          value={d.toolDefs}
          aria-invalid={errors.has('toolDefs') || undefined}
          onChange={(e) => setDraft({ toolDefs: e.target.value })}
        />
      </Field>
      <CheckRow
        checked={d.agentic}
        onChange={(checked) => setDraft({ agentic: checked })}
        title="The model's tool call → the tool's result after an injected latency → the next step with the result appended, up to the steps cap; one concurrency slot per session"
        testId="run-agentic"
      >
        agentic sessions (call → result → next step)
      </CheckRow>
      {errors.get('agentic') && <p className="field-error">{errors.get('agentic')}</p>}
      {d.agentic && <AgenticFields d={d} errors={errors} />}
    </details>
  );
}

/** An agentic session's steps cap, the tool's latency and its result's size. */
function AgenticFields({ d, errors }: Props) {
  const offered = d.source === 'tools' || d.toolDefs.trim() !== '';
  const latencyError =
    errors.get('toolLatencyMs') ?? errors.get('toolLatencyMinMs') ?? errors.get('toolLatencyMaxMs');
  return (
    <>
      <div className="field-pair">
        <Field
          label="Steps at most"
          error={errors.get('agenticSteps')}
          hint={`1–64 per session; each of the ${d.requests.trim() || '…'} requests is a session`}
          wrap
        >
          <Num k="agenticSteps" label="Agentic steps" errors={errors} testId="run-agentic-steps" />
        </Field>
        <Field label="Tool result (chars)" error={errors.get('toolResultChars')} hint="seeded text per call">
          <Num k="toolResultChars" label="Tool result characters" errors={errors} />
        </Field>
        <Field label="Tool latency" hint="the wait before each result">
          <select
            aria-label="Tool latency"
            data-testid="run-tool-latency"
            value={d.toolLatency}
            onChange={(e) => setDraft({ toolLatency: e.target.value as ToolDraft['toolLatency'] })}
          >
            <option value="fixed">fixed</option>
            <option value="uniform">uniform between</option>
            <option value="exponential">exponential, mean</option>
          </select>
        </Field>
        <Field label="Tool latency (ms)" error={latencyError}>
          {d.toolLatency === 'uniform' ? (
            <span className="inline-pair">
              <Num
                k="toolLatencyMinMs"
                label="Tool latency min ms"
                errors={errors}
                testId="run-tool-latency-min"
              />
              –
              <Num
                k="toolLatencyMaxMs"
                label="Tool latency max ms"
                errors={errors}
                testId="run-tool-latency-max"
              />
            </span>
          ) : (
            <Num k="toolLatencyMs" label="Tool latency ms" errors={errors} testId="run-tool-latency-ms" />
          )}
        </Field>
      </div>
      {!offered && (
        <p className="field-hint wrap" data-testid="run-agentic-no-tools">
          No tools are offered: pick the tool-calling prompt source or add definitions, or every session ends
          after one step.
        </p>
      )}
    </>
  );
}
