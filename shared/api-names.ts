/**
 * The method and event names of the contract (shared/api.ts), without its schemas, so the
 * preload bundle stays tiny (no zod). A test proves these lists equal the contract's.
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
  'importRun',
  'revealRun',
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
] as const;

export const methodChannel = (m: string): string => `tokenscope:call:${m}`;
export const eventChannel = (e: string): string => `tokenscope:event:${e}`;
export const READY_CHANNEL = 'tokenscope:ready';
