/**
 * The simulator's HTTP server (node:http): routing, body reading, Nagle off on every socket (a
 * chunk must leave when it is written, not 40 ms later), `x-request-id` on every response, and a
 * graceful close that ends open streams, stops the engine loop and flushes the ground truth.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { DialectId } from '../../shared/dialects.ts';
import { closeAfterStream, refuseOnClosing } from './close-after-stream.ts';
import { liftImages, type LiftedBody } from './body-images.ts';
import { acceptGeneration, requestIdFor, sendError, type SimCore } from './generate.ts';
import { GroundTruthLog } from './ground-truth.ts';
import { refusal } from './guard.ts';
import { infoResponse } from './info.ts';
import { serveTokenize } from './tokenize.ts';
import { PoolingEngine } from './pooling.ts';
import { SimGpus } from './gpu.ts';
import { SimMetrics } from './metrics.ts';
import { SimDisaggMetrics } from './metrics-disagg.ts';
import { SimTracer, simPhasesOf } from './tracing.ts';
import { Rng } from '../../shared/prng.ts';
import { loadReplay, serveReplay, type ReplayBody } from './replay.ts';
import { Scheduler, type SeqObserver } from './scheduler.ts';
import { SimSpecDecode } from './spec-decode.ts';
import { engineOptions } from './models.ts';
import type { GroundTruthRecord, ResolvedSimOptions, SimPhases, SimServer, SimState } from './types.ts';

const POST_ROUTES: Readonly<Record<string, DialectId>> = {
  '/v1/chat/completions': 'openai-chat',
  '/v1/completions': 'openai-completions',
  '/v1/responses': 'openai-responses',
  '/v1/messages': 'anthropic-messages',
  '/generate_stream': 'tgi',
  '/generate': 'tgi',
  '/completion': 'llamacpp',
  '/api/generate': 'ollama-generate',
  '/api/chat': 'ollama-chat',
};

/** Embeddings and rerank, answered whole (sim/pooling.ts); vLLM serves rerank at all three. */
const POOL_ROUTES: Readonly<Record<string, 'embeddings' | 'rerank'>> = {
  '/v1/embeddings': 'embeddings',
  '/rerank': 'rerank',
  '/v1/rerank': 'rerank',
  '/v2/rerank': 'rerank',
};

const MAX_BODY_BYTES = 64 * 1024 * 1024; // a request with images (shared/runs/workload/images.ts: 32 MiB of them, base64)
const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Pending connections the kernel keeps for the simulator to accept (uvicorn's default). */
const ACCEPT_BACKLOG = 2048;

export class SimHttpServer implements SimServer {
  url = '';
  port = 0;
  private readonly server: Server;
  private readonly metrics: SimMetrics;
  /** Disaggregated mode's prefill/decode metrics (options.kvTransferMs), null when off. */
  private readonly disagg: SimDisaggMetrics | null;
  /** The synthetic GPU exporter (`/gpu-metrics`), null with `gpus: 0`. */
  readonly gpus: SimGpus | null;
  private readonly core: SimCore;
  private readonly sockets = new Set<Socket>();
  private readonly replayBody: ReplayBody | null;
  private readonly startedSec = Math.floor((performance.timeOrigin + performance.now()) / 1000);
  private requests = 0;
  private closing: Promise<void> | null = null;
  /** The span exporter (options.otlpEndpoint), null without one. */
  private readonly tracer: SimTracer | null;
  /** The embeddings/rerank queue. */
  readonly pooling: PoolingEngine;

  constructor(readonly options: ResolvedSimOptions) {
    this.metrics = new SimMetrics(
      options.model,
      options.kvCacheTokens,
      options.prefixCaching,
      options.spec ? new SimSpecDecode(options.spec) : null,
    );
    this.disagg = options.kvTransferMs !== null ? new SimDisaggMetrics(options.model) : null;
    this.gpus =
      options.gpus > 0 ? new SimGpus({ gpus: options.gpus, energyCounter: options.gpuEnergyCounter }) : null;
    this.tracer = options.otlpEndpoint
      ? new SimTracer(options.otlpEndpoint, options.otlpProtocol, options.model)
      : null;
    const groundTruth = new GroundTruthLog(options.groundTruth, options.log);
    const onEnd: SeqObserver = (seq, reason, now) => {
      if (reason !== 'stop' && reason !== 'length') return; // vLLM traces finished requests
      const p = simPhasesOf(seq, now);
      groundTruth.phases(p);
      this.tracer?.finished(p, seq.spec.maxTokens);
    };
    this.core = {
      opts: options,
      scheduler: new Scheduler(options, this.metrics, this.gpus, onEnd, this.disagg),
      engines: new Map(
        options.extraModels.map((m) => [
          m.name,
          new Scheduler(engineOptions(options, m), this.metrics, null, onEnd, null),
        ]),
      ),
      groundTruth,
      ids: new Rng(options.seed, 'request-ids'),
      instanceId: randomBytes(4).toString('hex'),
      faultRng: new Rng(options.seed, 'faults'),
      sessions: new Set(),
      ordinal: 0,
    };
    this.pooling = new PoolingEngine(this.core, this.metrics);
    this.replayBody = options.replay ? loadReplay(options.replay) : null;
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (socket: Socket) => {
      socket.setNoDelay(true);
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server.on('clientError', (_err, socket) => socket.destroy());
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      // uvicorn's accept backlog (uvicorn/config.py Config: backlog=2048), which vLLM's and
      // SGLang's servers run with; Node's default of 511 overflowed when uploads kept the loop
      // busy, and the connections the kernel dropped were reset half a minute later.
      this.server.listen(
        { port: this.options.port, host: this.options.host, backlog: ACCEPT_BACKLOG },
        () => {
          this.server.off('error', reject);
          const addr = this.server.address();
          this.port = typeof addr === 'object' && addr ? addr.port : this.options.port;
          const host = this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host;
          this.url = `http://${host}:${this.port}`;
          this.options.log(
            `sim: listening on ${this.url} (model ${this.options.model}, seed ${this.options.seed})`,
          );
          resolve();
        },
      );
    });
  }

  state(): SimState {
    const s = this.core.scheduler;
    return {
      running: s.numRunning,
      waiting: s.numWaiting,
      kvCacheUsage: s.kvUsage(),
      kvReservedTokens: s.reservedTokens,
      steps: s.steps,
      requests: this.requests,
      finished: { ...this.metrics.finishedBy },
      promptTokens: this.metrics.promptTokens,
      prefixCacheQueries: this.metrics.prefixQueries,
      prefixCacheHits: this.metrics.prefixHits,
      generationTokens: this.metrics.generationTokens,
      activeStreams: this.core.sessions.size,
      gpuEnergyJ: this.gpus?.energyJ() ?? null,
      specDecode: this.metrics.specDecode?.snapshot() ?? null,
      disagg: this.disagg?.truth() ?? null,
      pooling: { passes: this.pooling.passes, served: this.pooling.served },
    };
  }

  /** Disaggregated mode: every KV transfer's time as charged, ms (empty when off). */
  kvTransfersMs(): readonly number[] {
    return this.disagg?.durationsMs ?? [];
  }

  groundTruth(): GroundTruthRecord[] {
    return this.core.groundTruth.all();
  }

  groundTruthPhases(): SimPhases[] {
    return this.core.groundTruth.allPhases();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
      for (const s of [...this.core.sessions]) s.shutdown();
      this.core.scheduler.close();
      for (const e of this.core.engines.values()) e.close();
      this.pooling.close();
      this.server.closeIdleConnections();
      // Give ended responses a moment to flush, then cut whatever is still open.
      await new Promise((r) => setImmediate(r));
      for (const socket of this.sockets) socket.destroy();
      await closed;
      await this.core.groundTruth.close();
      await this.tracer?.close().catch((e: unknown) => this.options.log(`sim: span export: ${String(e)}`));
      this.options.log('sim: closed');
    })();
    return this.closing;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    // A request on a connection being closed after a stream (llama.cpp mode) is never answered.
    if (refuseOnClosing(req.socket)) return;
    const refused = refusal(req, this.options.host, this.options.allowedHosts);
    if (refused) {
      req.resume();
      return sendError(res, {
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ detail: refused }),
      });
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const requestId = requestIdFor(req, this.core.ids, this.core.instanceId);
    res.setHeader('x-request-id', requestId);
    if (this.options.closeAfterStream) closeAfterStream(req, res, this.options.closeAfterStreamMs);
    if (this.closing)
      return sendError(res, {
        status: 503,
        contentType: 'application/json',
        body: '{"detail":"Server is shutting down"}',
      });
    if (req.method === 'GET' || req.method === 'HEAD') return this.handleGet(path, res);
    if (req.method !== 'POST')
      return sendError(res, {
        status: 405,
        contentType: 'application/json',
        body: '{"detail":"Method Not Allowed"}',
      });
    if (path === '/sim/restart-metrics') {
      // Imitates a server restart as its /metrics see it (every counter back to 0).
      this.metrics.restart();
      res.writeHead(204);
      return void res.end();
    }
    if (this.options.cacheEndpoints && (path === '/reset_prefix_cache' || path === '/flush_cache')) {
      req.resume();
      return this.resetPrefixCache(path, res);
    }
    if (path === '/tokenize')
      return this.readBody(req, res, (raw) => serveTokenize(res, raw.text, this.options.kvCacheTokens));
    const pool = Object.hasOwn(POOL_ROUTES, path) ? POOL_ROUTES[path] : undefined;
    if (pool && !this.replayBody)
      return this.readBody(req, res, (raw) => {
        this.requests++;
        this.pooling.accept(pool, res, raw.text, requestId);
      });
    const dialect = POST_ROUTES[path];
    if (!dialect && !this.replayBody)
      return sendError(res, { status: 404, contentType: 'application/json', body: '{"detail":"Not Found"}' });
    this.readBody(
      req,
      res,
      (raw) => {
        this.requests++;
        if (this.replayBody) return this.replay(res, requestId);
        if (dialect) acceptGeneration(this.core, dialect, path === '/generate', req, res, raw);
      },
      true,
    );
  }

  /**
   * Empties the prefix cache, in the shape of the server whose endpoint was called. vLLM
   * (vllm/entrypoints/serve/cache/api_router.py): `POST /reset_prefix_cache` → 200, empty body,
   * whatever runs. SGLang (sglang/srt/entrypoints/http_server.py `flush_cache`): GET or POST
   * `/flush_cache` → 200 "Cache flushed…", or 400 with the same text when requests are running or
   * waiting (the scheduler refuses, and the cache is kept).
   */
  private resetPrefixCache(path: string, res: ServerResponse): void {
    const s = this.core.scheduler;
    if (path === '/reset_prefix_cache') {
      s.prefixCache?.clear();
      for (const e of this.core.engines.values()) e.prefixCache?.clear();
      res.writeHead(200, { 'content-length': '0' });
      return void res.end();
    }
    const all = [s, ...this.core.engines.values()];
    const busy = all.some((e) => e.numRunning + e.numWaiting > 0);
    if (!busy) for (const e of all) e.prefixCache?.clear();
    const body =
      'Cache flushed.\nPlease check backend logs for more details. (When there are running or waiting requests, the operation will not be performed.)\n';
    res.writeHead(busy ? 400 : 200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(body);
  }

  private handleGet(path: string, res: ServerResponse): void {
    if (path === '/flush_cache' && this.options.cacheEndpoints) return this.resetPrefixCache(path, res);
    if (path === '/metrics') {
      const s = this.core.scheduler;
      const body = this.metrics.render({
        running: s.numRunning + this.pooling.running,
        waiting: s.numWaiting + this.pooling.waiting,
        kvUsage: s.kvUsage(),
      });
      res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE });
      return void res.end(body);
    }
    if ((path === '/metrics/prefill' || path === '/metrics/decode') && this.disagg) {
      const s = this.core.scheduler;
      const role = path === '/metrics/prefill' ? 'prefill' : 'decode';
      res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE });
      return void res.end(this.disagg.render(role, { waiting: s.numWaiting, running: s.numRunning }));
    }
    if (path === '/gpu-metrics' && this.gpus) {
      res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE });
      return void res.end(this.gpus.render());
    }
    const info = infoResponse(path, this.options, this.startedSec);
    if (!info)
      return sendError(res, { status: 404, contentType: 'application/json', body: '{"detail":"Not Found"}' });
    res.writeHead(info.status, info.contentType ? { 'content-type': info.contentType } : {});
    res.end(info.body);
  }

  /**
   * The body, read whole (413 past MAX_BODY_BYTES). `lift`: a generation's body, whose base64
   * images are taken out of its bytes first (body-images.ts) and handed on beside its text.
   */
  private readBody(
    req: IncomingMessage,
    res: ServerResponse,
    done: (raw: LiftedBody) => void,
    lift = false,
  ): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES)
        return sendError(res, {
          status: 413,
          contentType: 'application/json',
          body: '{"detail":"Request body too large"}',
        });
      done(lift ? liftImages(chunks, size) : { text: Buffer.concat(chunks).toString('utf8'), images: [] });
    });
    req.on('error', () => res.destroy());
  }

  private replay(res: ServerResponse, requestId: string): void {
    const body = this.replayBody as ReplayBody;
    const handle = { shutdown: () => stop() };
    const stop = serveReplay(res, body, requestId, this.core.groundTruth, () =>
      this.core.sessions.delete(handle),
    );
    this.core.sessions.add(handle);
  }
}
