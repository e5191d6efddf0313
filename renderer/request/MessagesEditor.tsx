/** Chat messages as role + content rows. The last user message's box is the "prompt" (e2e hook). */
import type { ChatMessage } from '../../shared/request.ts';

const ROLES: ChatMessage['role'][] = ['system', 'user', 'assistant', 'tool'];

interface Props {
  messages: ChatMessage[];
  onChange: (m: ChatMessage[]) => void;
  error?: string;
}

export function MessagesEditor({ messages, onChange, error }: Props) {
  const set = (i: number, patch: Partial<ChatMessage>): void =>
    onChange(messages.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  let promptIndex = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') promptIndex = i;
  });
  if (promptIndex < 0) promptIndex = messages.length - 1;
  return (
    <div className="messages">
      {messages.map((m, i) => (
        <div className={`msg msg-${m.role}`} key={i}>
          <div className="msg-head">
            <select
              aria-label={`Message ${i + 1} role`}
              value={m.role}
              onChange={(e) => set(i, { role: e.target.value as ChatMessage['role'] })}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="btn icon ghost"
              aria-label={`Remove message ${i + 1}`}
              onClick={() => onChange(messages.filter((_, j) => j !== i))}
              disabled={messages.length === 1}
            >
              ×
            </button>
          </div>
          <textarea
            aria-label={`Message ${i + 1} content`}
            data-testid={i === promptIndex ? 'prompt' : undefined}
            value={m.content}
            rows={i === promptIndex ? 5 : 2}
            onChange={(e) => set(i, { content: e.target.value })}
            placeholder={m.role === 'system' ? 'System prompt' : 'Message'}
          />
        </div>
      ))}
      <div className="row gap">
        <button
          type="button"
          className="btn small ghost"
          onClick={() =>
            onChange([
              ...messages,
              { role: messages.at(-1)?.role === 'user' ? 'assistant' : 'user', content: '' },
            ])
          }
        >
          + message
        </button>
        {!messages.some((m) => m.role === 'system') && (
          <button
            type="button"
            className="btn small ghost"
            onClick={() => onChange([{ role: 'system', content: '' }, ...messages])}
          >
            + system
          </button>
        )}
      </div>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
