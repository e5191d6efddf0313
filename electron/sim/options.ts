/**
 * Defaults of the simulator, chosen to look like a single-GPU vLLM serving an 8B model:
 * 20 ms decode steps (~50 tok/s per sequence), a 64-sequence batch, 256k tokens of KV cache,
 * prefill at 50k tokens/s. Values out of range are clamped rather than rejected, so a CLI flag
 * typo cannot take the demo target down.
 */
import { DEFAULT_CLOSE_AFTER_STREAM_MS } from './close-after-stream.ts';
import { toFaultSpec } from './faults.ts';
import { resolveSpec } from './spec-decode.ts';
import { resolveExtraModels } from './models.ts';
import type { ResolvedSimOptions, SimOptions } from './types.ts';

const SIM_DEFAULTS = {
  host: '127.0.0.1',
  port: 0,
  model: 'tokenscope-sim',
  seed: 1,
  maxNumSeqs: 64,
  kvCacheTokens: 262144,
  prefillMsPerToken: 0.02,
  decodeStepMs: 20,
  decodeStepPerSeqMs: 0.05,
  jitter: 0,
  streamInterval: 1,
  defaultMaxTokens: 128,
  faultRate: 1,
  replayIntervalMs: 20,
  closeAfterStreamMs: DEFAULT_CLOSE_AFTER_STREAM_MS,
} as const;

function num(v: number | undefined, dflt: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : dflt;
}

export function resolveOptions(o: SimOptions = {}): ResolvedSimOptions {
  const d = SIM_DEFAULTS;
  return {
    host: o.host ?? d.host,
    allowedHosts: o.allowedHosts ?? [],
    port: Math.floor(num(o.port, d.port, 0, 65535)),
    model: o.model ?? d.model,
    extraModels: resolveExtraModels(o.model ?? d.model, o.extraModels),
    seed: Math.floor(num(o.seed, d.seed, -(2 ** 31), 2 ** 32)),
    maxNumSeqs: Math.floor(num(o.maxNumSeqs, d.maxNumSeqs, 1)),
    kvCacheTokens: Math.floor(num(o.kvCacheTokens, d.kvCacheTokens, 16)),
    prefillMsPerToken: num(o.prefillMsPerToken, d.prefillMsPerToken, 0),
    decodeStepMs: num(o.decodeStepMs, d.decodeStepMs, 0.1),
    decodeStepPerSeqMs: num(o.decodeStepPerSeqMs, d.decodeStepPerSeqMs, 0),
    jitter: num(o.jitter, d.jitter, 0, 1),
    streamInterval: Math.floor(num(o.streamInterval, d.streamInterval, 1)),
    defaultMaxTokens: Math.floor(num(o.defaultMaxTokens, d.defaultMaxTokens, 1)),
    fault: toFaultSpec(o.fault),
    faultRate: num(o.faultRate, d.faultRate, 0, 1),
    groundTruth: o.groundTruth ?? false,
    replay: o.replay
      ? {
          file: o.replay.file,
          intervalMs: num(o.replay.intervalMs, d.replayIntervalMs, 0),
          timing: o.replay.timing ?? 'interval',
        }
      : null,
    closeAfterStream: o.closeAfterStream ?? false,
    closeAfterStreamMs: num(o.closeAfterStreamMs, d.closeAfterStreamMs, 0, 60_000),
    reasoningTokens: Math.floor(num(o.reasoningTokens, 0, 0, 1_000_000)),
    embeddingDim: Math.floor(num(o.embeddingDim, 384, 1, 65_536)),
    toolCallShare: num(o.toolCallShare, 0.8, 0, 1),
    prefixCaching: o.prefixCaching ?? true,
    promptTokensDetails: o.promptTokensDetails ?? true,
    cacheEndpoints: o.cacheEndpoints ?? true,
    gpus: Math.floor(num(o.gpus, 1, 0, 16)),
    gpuEnergyCounter: o.gpuEnergyCounter ?? true,
    otlpEndpoint: o.otlpEndpoint ?? null,
    otlpProtocol: o.otlpProtocol ?? 'http/protobuf',
    spec: resolveSpec(o.specK, o.specAccept),
    kvTransferMs:
      o.kvTransferMs === undefined || o.kvTransferMs === null ? null : num(o.kvTransferMs, 0, 0, 60_000),
    log: o.log ?? (() => {}),
  };
}
