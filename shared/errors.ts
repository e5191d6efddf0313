/**
 * Every failure of a request is a value with a kind (docs/ARCHITECTURE.md "Dialects and errors"). What arrived before the
 * failure is kept in the request record; the error only says what went wrong and where.
 */
/** Every error kind, once: the type, the run file's schema and the import reader take it from here. */
export const ERROR_KINDS = ['network', 'http', 'protocol', 'server', 'client'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export type ErrorCode =
  // network: the connection could not be made or was lost
  | 'dns'
  | 'refused'
  | 'reset'
  | 'tls'
  | 'unreachable'
  | 'network-other'
  // http: a non-2xx status before the stream started
  | 'status'
  // protocol: the bytes were not what the dialect promises
  | 'bad-json'
  | 'bad-frame'
  | 'truncated'
  | 'content-type'
  | 'event-too-large'
  // the server generated well past the request's max_tokens (it ignored it): stopped
  | 'over-max-tokens'
  // a token count the server sent cannot be true (past the column's range or max_tokens): stopped
  | 'bad-token-count'
  // a 200 with one JSON body instead of a stream (stream: true ignored): e2e only
  | 'not-streamed'
  // a non-streamed answer (embeddings, rerank) that is JSON of the wrong shape or count
  | 'bad-response'
  // the stream came compressed (Content-Encoding) although identity was asked for
  | 'compressed'
  // server: an error event inside a 200 stream
  | 'error-event'
  // client: we stopped it
  | 'timeout'
  | 'idle-timeout'
  | 'cancelled'
  | 'invalid-request'
  // client: the request's record reached its size limit (an endless stream): stopped
  | 'record-limit'
  // client: the stream-I/O thread that owned the connection stopped
  | 'io-thread';

export interface RequestError {
  kind: ErrorKind;
  code: ErrorCode;
  message: string;
  /** HTTP status, when there was a response. */
  status?: number;
  /** Response body (truncated) for http errors; the raw event for server/protocol errors. */
  body?: string;
  /** Offset from request start (ms) at which the failure was observed. */
  atMs?: number;
  /** A 3xx's Location: Tokenscope does not follow redirects, it says where. */
  location?: string;
  /** A 429/503's Retry-After, as the server sent it. */
  retryAfter?: string;
}

export const ERROR_KIND_HELP: Record<ErrorKind, string> = {
  network: 'The connection could not be opened or was lost (DNS, refused, reset, TLS).',
  http: 'The server answered with an error status before streaming.',
  protocol: 'The stream did not follow its format (bad frame or JSON, no terminator, wrong content type).',
  server: 'The server reported an error inside the stream.',
  client: 'Tokenscope stopped the request (timeout or cancel).',
};
