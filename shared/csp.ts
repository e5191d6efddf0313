/** The Content-Security-Policy of the UI, in Electron (header) and web mode (header) alike; index.html carries the same as a meta tag. */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
