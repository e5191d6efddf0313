/**
 * The part of JSON Schema that tool definitions use (OpenAI function `parameters`, Anthropic
 * `input_schema`): `type`, `properties`, `required`, `enum`, `items`, plus `description`, `title`,
 * `default` and `additionalProperties` (booleans), which are read or ignored. Written by hand: no
 * JSON-schema validator is a dependency of this project (the one in node_modules belongs to the
 * linter), and this subset is what a tool-call check needs: do the streamed arguments fit the tool?
 * A schema using any other keyword is refused when the workload is loaded, so a check is never
 * silently weaker than the schema the user wrote.
 */
export type JsonSchema = { [k: string]: unknown };

const TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const;
const KNOWN = new Set([
  'type',
  'properties',
  'required',
  'enum',
  'items',
  'description',
  'title',
  'default',
  'additionalProperties',
  'examples',
]);
/** Nesting past this is refused (a schema is a few levels deep; a recursive walk stays bounded). */
const MAX_SCHEMA_DEPTH = 16;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why `s` is not a schema this checker reads fully (with the path inside it), or null. */
export function schemaProblem(s: unknown, path = '', depth = 0): string | null {
  const at = path === '' ? '' : ` at ${path}`;
  if (!isObj(s)) return `a schema must be an object${at}`;
  if (depth > MAX_SCHEMA_DEPTH) return `nested deeper than ${MAX_SCHEMA_DEPTH} levels${at}`;
  for (const k of Object.keys(s))
    if (!KNOWN.has(k))
      return `"${k}"${at} is not supported (supported: ${[...KNOWN].slice(0, 5).join(', ')}, description, title, default, additionalProperties)`;
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  for (const t of types)
    if (!(TYPES as readonly unknown[]).includes(t))
      return `type ${JSON.stringify(t)}${at} is not a JSON type`;
  if (s.properties !== undefined) {
    if (!isObj(s.properties)) return `properties${at} must be an object`;
    for (const [k, v] of Object.entries(s.properties)) {
      const p = schemaProblem(v, `${path}.${k}`, depth + 1);
      if (p) return p;
    }
  }
  if (
    s.required !== undefined &&
    !(Array.isArray(s.required) && s.required.every((r) => typeof r === 'string'))
  )
    return `required${at} must be a list of names`;
  if (s.enum !== undefined && !(Array.isArray(s.enum) && s.enum.length > 0))
    return `enum${at} must be a non-empty list`;
  if (s.additionalProperties !== undefined && typeof s.additionalProperties !== 'boolean')
    return `additionalProperties${at} must be true or false`;
  if (s.items !== undefined) return schemaProblem(s.items, `${path}[]`, depth + 1);
  return null;
}

function typeOk(t: unknown, v: unknown): boolean {
  switch (t) {
    case 'object':
      return isObj(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    default:
      return false;
  }
}

/** The first way `v` breaks `s` (a checked schema: schemaProblem(s) is null), with its path; null when it fits. */
export function validateJson(v: unknown, s: JsonSchema, path = '$'): string | null {
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => typeOk(t, v))) return `${path}: expected ${types.join(' or ')}`;
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v)))
    return `${path}: not one of the enum's values`;
  if (isObj(v)) {
    const props = isObj(s.properties) ? s.properties : {};
    if (Array.isArray(s.required))
      for (const r of s.required) if (typeof r === 'string' && !(r in v)) return `${path}.${r}: required`;
    for (const [k, sub] of Object.entries(props)) {
      if (!(k in v) || !isObj(sub)) continue;
      const p = validateJson(v[k], sub, `${path}.${k}`);
      if (p) return p;
    }
    if (s.additionalProperties === false)
      for (const k of Object.keys(v)) if (!(k in props)) return `${path}.${k}: not allowed`;
  }
  if (Array.isArray(v) && isObj(s.items))
    for (let i = 0; i < v.length; i++) {
      const p = validateJson(v[i], s.items, `${path}[${i}]`);
      if (p) return p;
    }
  return null;
}
