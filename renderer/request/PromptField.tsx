import type { ChatMessage } from '../../shared/request.ts';
import { patchForm } from './composer-store.ts';
import { MessagesEditor } from './MessagesEditor.tsx';

/** Chat messages for a chat dialect, else one prompt. */
export function PromptField({
  chat,
  messages,
  prompt,
  error,
}: {
  chat: boolean;
  messages: ChatMessage[];
  prompt: string;
  error?: string;
}) {
  return (
    <div className="field">
      <label>{chat ? 'Messages' : 'Prompt'}</label>
      {chat ? (
        <MessagesEditor messages={messages} onChange={(m) => patchForm({ messages: m })} error={error} />
      ) : (
        <>
          <textarea
            data-testid="prompt"
            aria-label="Prompt"
            rows={6}
            value={prompt}
            onChange={(e) => patchForm({ prompt: e.target.value })}
          />
          {error && <p className="field-error">{error}</p>}
        </>
      )}
    </div>
  );
}
