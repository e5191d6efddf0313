/** The definitions presets to choose from (shared/runs/summary/definitions.ts), by their tools' names. */
import { DEFINITION_IDS, DEFINITIONS, type DefinitionsId } from '../../../shared/runs/summary/definitions.ts';

export function DefinitionsSelect({
  value,
  onChange,
  testId,
  title,
}: {
  value: DefinitionsId;
  onChange: (d: DefinitionsId) => void;
  testId: string;
  title: string;
}) {
  return (
    <select
      data-testid={testId}
      value={value}
      onChange={(e) => onChange(e.target.value as DefinitionsId)}
      title={title}
    >
      {DEFINITION_IDS.map((id) => (
        <option key={id} value={id}>
          {DEFINITIONS[id].name}
        </option>
      ))}
    </select>
  );
}
