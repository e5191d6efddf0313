/**
 * The test request: one request sent before a run's clock starts, as `vllm bench serve` sends its
 * "initial single prompt test run". A wrong model, URL, key, dialect or a prompt longer than the
 * model's context then stops the run with the server's own words, instead of a run whose every
 * request failed the same way. Nothing of it is measured: it is not a line of the run, and its
 * prompt comes from its own stream, so it never pre-caches a measured prompt.
 *
 * A failure that will not change on a second try (refused, DNS, TLS, a 4xx other than 408/429, a
 * JSON body instead of a stream, a wrong content type) stops at once; one that may be passing (a
 * 5xx, 429, a dropped or timed-out stream, an error event) is tried again, up to
 * TEST_REQUEST_ATTEMPTS in all, so a server injecting a share of faults still gets its run.
 */
import type { RequestError } from '../../shared/errors.ts';
import type { RequestRecord } from '../../shared/record.ts';
import type { RequestSpec } from '../../shared/request.ts';
import { recordToLineWithStats } from '../../shared/runs/file/record-line.ts';
import type { RunTestRequest } from '../../shared/runs/file/line-schema.ts';
import { fireRequest } from '../engine/client.ts';
import { sleepUntil } from './slots.ts';
import { now } from '../engine/clock.ts';

const TEST_REQUEST_ATTEMPTS = 3;
/** Pause between attempts (ms); a 429/503's Retry-After is honoured up to RETRY_AFTER_MAX_MS. */
const RETRY_PAUSE_MS = 500;
const RETRY_AFTER_MAX_MS = 5_000;

/** Failures that a second try may not repeat. @internal exported for its tests */
export function isTransient(e: RequestError): boolean {
  switch (e.kind) {
    case 'http':
      return e.status === undefined || e.status >= 500 || e.status === 408 || e.status === 429;
    case 'network':
      return e.code === 'reset' || e.code === 'network-other';
    case 'server':
      return true;
    case 'protocol':
      return e.code === 'truncated' || e.code === 'bad-frame' || e.code === 'bad-json';
    case 'client':
      return e.code === 'timeout' || e.code === 'idle-timeout' || e.code === 'io-thread';
  }
}

export interface TestRequestOutcome {
  /** The last attempt's record (its error, if it failed). */
  rec: RequestRecord;
  attempts: number;
  /** Cancelled while testing. */
  cancelled: boolean;
}

function pauseAfter(e: RequestError): number {
  const ra = e.retryAfter !== undefined ? Number(e.retryAfter) : NaN;
  if (Number.isFinite(ra) && ra >= 0)
    return Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_PAUSE_MS, ra * 1000));
  return RETRY_PAUSE_MS;
}

/** What the run header keeps of a passed test request (its numbers, computed as any line's). */
export function testRequestSummary(
  t: TestRequestOutcome,
  inputTokens: number,
  spec: RequestSpec,
): RunTestRequest {
  const { line } = recordToLineWithStats(t.rec, {
    seq: 0,
    warmup: true,
    scheduledMs: null,
    arrivedMs: 0,
    startedMs: 0,
    inputTokensEstimate: inputTokens,
    expectedOutputTokens: spec.params?.maxTokens ?? null,
    saveText: false,
  });
  return {
    attempts: t.attempts,
    ttftMs: line.ttftMs,
    e2eMs: line.e2eMs,
    outputTokens: line.outputTokens,
    ...(t.rec.responseModel !== undefined ? { responseModel: t.rec.responseModel } : {}),
  };
}

export async function sendTestRequest(
  spec: RequestSpec,
  o: { pool: number; signal: AbortSignal; attempts?: number },
): Promise<TestRequestOutcome> {
  const max = o.attempts ?? TEST_REQUEST_ATTEMPTS;
  let attempts = 0;
  for (;;) {
    attempts++;
    const rec = await fireRequest(spec, {
      signal: o.signal,
      keepRaw: false,
      pool: o.pool,
      id: `test${attempts}`,
    });
    if (o.signal.aborted) return { rec, attempts, cancelled: true };
    const err = rec.error;
    if (!err || attempts >= max || !isTransient(err)) return { rec, attempts, cancelled: false };
    await sleepUntil(now() + pauseAfter(err), o.signal);
    if (o.signal.aborted) return { rec, attempts, cancelled: true };
  }
}

/** The run did not start: its test request failed. */
export class TestRequestError extends Error {
  constructor(
    readonly requestError: RequestError,
    readonly attempts: number,
  ) {
    super(
      `The test request failed${attempts > 1 ? ` ${attempts} times` : ''}, so the run did not start: ${requestError.message}`,
    );
    this.name = 'TestRequestError';
  }
}
