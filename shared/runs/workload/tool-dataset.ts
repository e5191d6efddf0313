/**
 * The built-in tool-calling dataset (prompt source `{"type": "tools"}` without a path): written for
 * Tokenscope, not downloaded. Five tools whose arguments range from one short string to a document
 * of several sections, and prompts that each ask for one of them, so a run exercises small and
 * large argument streams alike. The same shape as a user's JSONL lines (tools.ts ToolDatasetLine).
 */
import type { ToolSpec } from '../../tool-calls.ts';
import type { ToolDatasetLine } from './tools.ts';

const getWeather: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['city'],
  },
};

const searchDocs: ToolSpec = {
  name: 'search_docs',
  description: 'Search the internal documentation.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      max_results: { type: 'integer' },
      filters: {
        type: 'object',
        properties: {
          product: { type: 'string' },
          year: { type: 'integer' },
          tags: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    required: ['query'],
  },
};

const createTicket: ToolSpec = {
  name: 'create_ticket',
  description: 'Open a support ticket.',
  parameters: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      priority: { type: 'string', enum: ['low', 'medium', 'high', 'urgent'] },
      description: { type: 'string' },
      labels: { type: 'array', items: { type: 'string' } },
    },
    required: ['title', 'priority', 'description'],
  },
};

const writeReport: ToolSpec = {
  name: 'write_report',
  description: 'Save a structured report of several sections.',
  parameters: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      summary: { type: 'string' },
      sections: {
        type: 'array',
        items: {
          type: 'object',
          properties: { heading: { type: 'string' }, body: { type: 'string' } },
          required: ['heading', 'body'],
        },
      },
    },
    required: ['title', 'sections'],
  },
};

const runSql: ToolSpec = {
  name: 'run_sql',
  description: 'Run a read-only SQL query against the analytics database.',
  parameters: {
    type: 'object',
    properties: { sql: { type: 'string' }, timeout_s: { type: 'number' } },
    required: ['sql'],
  },
};

const ALL = [getWeather, searchDocs, createTicket, writeReport, runSql];

/** Prompts by the size of the arguments they call for: small (~20 tokens), medium (~80), large (~400+). */
export const BUILTIN_TOOL_DATASET: readonly ToolDatasetLine[] = [
  { prompt: 'What is the weather in Oslo right now, in celsius?', tools: [getWeather], output_len: 32 },
  { prompt: 'Is it raining in Lisbon? Use the weather tool.', tools: ALL, output_len: 32 },
  {
    prompt:
      'Find our documentation about rotating API keys for the billing product, 2025 or later, tagged security.',
    tools: [searchDocs, getWeather],
    output_len: 96,
  },
  {
    prompt: 'How many orders did each region place last month? Query the analytics database.',
    tools: [runSql, searchDocs],
    output_len: 128,
  },
  {
    prompt:
      'A customer reports that exports time out after 30 seconds on large workspaces since the last release. Open a high-priority ticket describing the symptom, the steps to reproduce and what was already tried.',
    tools: [createTicket],
    output_len: 256,
  },
  {
    prompt:
      "Write a report on last quarter's incident reviews: a title, a short summary and one section each for root causes, detection, response times and follow-up actions, a paragraph per section.",
    tools: [writeReport, searchDocs],
    tool_choice: { name: 'write_report' },
    output_len: 512,
  },
  {
    prompt: 'Search the docs for the retry policy of the webhooks service.',
    tools: ALL,
    tool_choice: 'required',
    output_len: 64,
  },
  {
    prompt:
      'Draft a report comparing three caching strategies for our API gateway, with sections on latency, cost, invalidation and operational risk, each several sentences long.',
    tools: [writeReport],
    output_len: 768,
  },
  {
    prompt: 'Open a low-priority ticket: the settings page shows the wrong time zone for users in Samoa.',
    tools: [createTicket, getWeather],
    output_len: 160,
  },
  {
    prompt: 'List the ten customers with the highest monthly spend, with their plan and signup date.',
    tools: [runSql],
    output_len: 160,
  },
];
