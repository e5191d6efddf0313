/**
 * The method and event names of the contract, declared once, without its schemas, so the preload
 * bundle stays tiny (no zod). shared/api.ts checks at compile time that its schemas and event types
 * cover exactly these names.
 */
export const METHOD_NAMES = [
  'getAppInfo',
  'listTargets',
  'saveTarget',
  'deleteTarget',
  'listModels',
  'fireRequest',
  'cancelRequest',
  'getRequest',
  'listHistory',
  'curlFor',
  'watchMetrics',
  'startRun',
  'cancelRun',
  'listRuns',
  'openRun',
  'renameRun',
  'deleteRun',
  'exportRun',
  'exportReport',
  'importRun',
  'revealRun',
  'exportRunOtlp',
  'startSweep',
  'cancelSweep',
  'listSweeps',
  'openSweep',
] as const;

export const EVENT_NAMES = [
  'onRequestStarted',
  'onRequestBatch',
  'onRequestFinished',
  'onTargetsChanged',
  'onMetricsScrape',
  'onMetricsState',
  'onRunStarted',
  'onRunProgress',
  'onRunLanes',
  'onRunFinished',
  'onRunsChanged',
  'onSweepProgress',
] as const;

export type MethodName = (typeof METHOD_NAMES)[number];
export type EventName = (typeof EVENT_NAMES)[number];

export const methodChannel = (m: string): string => `tokenscope:call:${m}`;
export const eventChannel = (e: string): string => `tokenscope:event:${e}`;
export const READY_CHANNEL = 'tokenscope:ready';
