import { startSim, type SimOptions } from '../sim/index.ts';
import { parseSpecAccept } from '../sim/spec-decode.ts';
import { parseExtraModel, type ExtraModel } from '../sim/models.ts';
import { errorMessage } from '../../shared/result.ts';

export interface SimCliOptions {
  /** Length of the embeddings' vectors (sim/pooling.ts). */
  embeddingDim?: number;
  port: number;
  host: string;
  /** `--allow-host`: names requests may carry besides loopback and IP addresses. */
  allowHost?: string[];
  model: string;
  /** `--extra-model name[=speedup]` (repeatable): more names served, each at its own speed. */
  extraModel?: string[];
  seed: number;
  maxNumSeqs: number;
  decodeStepMs: number;
  decodeStepPerSeqMs: number;
  prefillMsPerToken: number;
  streamInterval: number;
  jitter: number;
  maxTokens: number;
  fault?: string;
  faultRate: number;
  groundTruth?: string;
  replay?: string;
  replayInterval: number;
  closeAfterStream?: boolean;
  closeAfterStreamMs: number;
  reasoning: number;
  toolCallShare: number;
  /** commander's `--no-prefix-caching`: false when given. */
  prefixCaching: boolean;
  /** commander's `--no-prompt-tokens-details` / `--no-cache-endpoints`. */
  promptTokensDetails: boolean;
  cacheEndpoints: boolean;
  gpus: number;
  gpuEnergyCounter: boolean;
  /** Export a vLLM-shaped span per finished request to this OTLP/HTTP traces endpoint. */
  otlpEndpoint?: string;
  otlpProtocol?: string;
  /** Speculative mode: draft tokens per step (0: off) and the acceptance list as typed. */
  specK: number;
  specAccept?: string;
  /** Disaggregated mode, with this KV transfer per request (ms). */
  disagg?: boolean;
  kvTransferMs?: number;
  quiet?: boolean;
}

export async function runSimCommand(o: SimCliOptions): Promise<number> {
  if (o.otlpProtocol !== undefined && o.otlpProtocol !== 'http/protobuf' && o.otlpProtocol !== 'http/json') {
    process.stderr.write(`--otlp-protocol: http/protobuf or http/json, not ${o.otlpProtocol}\n`);
    return 2;
  }
  const accept = parseSpecAccept(o.specAccept);
  if (typeof accept === 'string') {
    process.stderr.write(accept + '\n');
    return 2;
  }
  const extraModels: ExtraModel[] = [];
  for (const spec of o.extraModel ?? []) {
    const m = parseExtraModel(spec);
    if (!m.ok) {
      process.stderr.write(m.error + '\n');
      return 2;
    }
    extraModels.push(m.value);
  }
  const opts: SimOptions = {
    host: o.host,
    allowedHosts: o.allowHost ?? [],
    port: o.port,
    model: o.model,
    extraModels,
    seed: o.seed,
    maxNumSeqs: o.maxNumSeqs,
    decodeStepMs: o.decodeStepMs,
    decodeStepPerSeqMs: o.decodeStepPerSeqMs,
    prefillMsPerToken: o.prefillMsPerToken,
    streamInterval: o.streamInterval,
    jitter: o.jitter,
    defaultMaxTokens: o.maxTokens,
    fault: o.fault ?? null,
    faultRate: o.faultRate,
    groundTruth: o.groundTruth ?? false,
    replay: o.replay ? { file: o.replay, intervalMs: o.replayInterval, timing: 'interval' } : null,
    closeAfterStream: o.closeAfterStream ?? false,
    closeAfterStreamMs: o.closeAfterStreamMs,
    reasoningTokens: o.reasoning,
    embeddingDim: o.embeddingDim,
    toolCallShare: o.toolCallShare,
    prefixCaching: o.prefixCaching,
    promptTokensDetails: o.promptTokensDetails,
    cacheEndpoints: o.cacheEndpoints,
    gpus: o.gpus,
    gpuEnergyCounter: o.gpuEnergyCounter,
    otlpEndpoint: o.otlpEndpoint ?? null,
    otlpProtocol: o.otlpProtocol === 'http/json' ? 'http/json' : 'http/protobuf',
    specK: o.specK,
    specAccept: accept,
    kvTransferMs: o.disagg ? (o.kvTransferMs ?? 50) : null,
    // The banner below says where it listens (once); the server's own line is for embedders.
    log: o.quiet
      ? undefined
      : (line: string) => {
          if (!line.startsWith('sim: listening on')) process.stderr.write(line + '\n');
        },
  };
  let sim;
  try {
    sim = await startSim(opts);
  } catch (e) {
    process.stderr.write(`error: could not start the simulator: ${errorMessage(e)}\n`);
    return 1;
  }
  process.stdout.write(
    [
      `Tokenscope simulator listening on ${sim.url}  (model "${o.model}", seed ${o.seed}, max ${o.maxNumSeqs} seqs, ${o.decodeStepMs} ms/step)`,
      `  OpenAI:   ${sim.url}/v1/chat/completions  ${sim.url}/v1/completions  ${sim.url}/v1/responses  ${sim.url}/v1/models`,
      `  Anthropic: ${sim.url}/v1/messages`,
      `  TGI:      ${sim.url}/generate_stream    llama.cpp: ${sim.url}/completion`,
      `  Ollama:   ${sim.url}/api/generate  ${sim.url}/api/chat  ${sim.url}/api/tags`,
      `  metrics:  ${sim.url}/metrics`,
      ...sim.options.extraModels.map(
        (m) =>
          `  also serves "${m.name}" at ${m.speedup}× the speed (${(o.decodeStepMs / m.speedup).toFixed(3)} ms/step)`,
      ),
      ...(sim.options.kvTransferMs !== null
        ? [
            `  disaggregated: prefill ${sim.url}/metrics/prefill  decode ${sim.url}/metrics/decode  (KV transfer ${sim.options.kvTransferMs} ms per request)`,
          ]
        : []),
      ...(sim.options.gpus > 0
        ? [
            `  GPUs:     ${sim.url}/gpu-metrics  (${sim.options.gpus} synthetic GPU${sim.options.gpus > 1 ? 's' : ''}, dcgm-exporter format${sim.options.gpuEnergyCounter ? '' : ', no energy counter'})`,
          ]
        : []),
      ...(sim.options.closeAfterStream
        ? [
            `  connections: closed ${sim.options.closeAfterStreamMs} ms after every streamed response, though keep-alive is advertised (as llama.cpp's server)`,
          ]
        : []),
      ...(sim.options.reasoningTokens > 0
        ? [
            `  reasoning: ${sim.options.reasoningTokens} reasoning tokens before every answer (delta.reasoning, thinking, reasoning_text, thinking blocks)`,
          ]
        : []),
      ...(sim.options.spec
        ? [
            `  speculative: ${sim.options.spec.k} draft tokens per step, acceptance ${sim.options.spec.accept.join(', ')} by position (vllm:spec_decode_* in /metrics)`,
          ]
        : []),
      `  prefix cache: ${sim.options.prefixCaching ? `on (${Math.floor(sim.options.kvCacheTokens / 16)} blocks of 16 tokens)` : 'off'}`,
      `Try:  npx tokenscope probe ${sim.url}`,
      'Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sim.close();
  return 0;
}
