// The report page (renderer/report/) as ONE self-contained HTML file: out/report/template.html,
// its script and styles inline, nothing to fetch. The core fills the data placeholder
// (shared/report/report-html.ts). The page's CSP allows the one inline script by its sha256 hash,
// computed here on the exact text written, so nothing else can run in a report, whatever its data.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

/** `</script` or `<!--` in the code would end or confuse the script element: written so they cannot. */
export function scriptSafe(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

export function reportCsp(scriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Inlines the one script chunk and the CSS into the page, drops their files, writes the CSP. */
function inlineAll(): Plugin {
  return {
    name: 'tokenscope-report-inline',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = Object.values(bundle).find((b) => b.type === 'asset' && b.fileName.endsWith('.html'));
      if (!html || html.type !== 'asset') throw new Error('report build: no HTML page');
      const chunks = Object.values(bundle).filter((b) => b.type === 'chunk');
      if (chunks.length !== 1) throw new Error(`report build: ${chunks.length} script chunks, want 1`);
      const css = Object.values(bundle).filter((b) => b.type === 'asset' && b.fileName.endsWith('.css'));
      const others = Object.values(bundle).filter(
        (b) => b !== html && !chunks.includes(b) && !css.includes(b),
      );
      if (others.length)
        throw new Error(`report build: files not inlined: ${others.map((b) => b.fileName).join(', ')}`);
      const code = scriptSafe(chunks[0]!.type === 'chunk' ? chunks[0]!.code : '');
      const hash = createHash('sha256').update(code, 'utf8').digest('base64');
      let page = String(html.source);
      page = page.replace(/<script type="module"[^>]*src="[^"]*"[^>]*><\/script>\s*/, '');
      page = page.replace(/<link rel="stylesheet"[^>]*>\s*/g, '');
      const styles = css.map((c) => (c.type === 'asset' ? String(c.source) : '')).join('\n');
      if (styles.includes('</style')) throw new Error('report build: CSS contains </style');
      // Functions as replacements: `$&` in the code must stay as it is.
      page = page.replace('</head>', () => `<style>${styles}</style>\n</head>`);
      page = page.replace('</body>', () => `<script type="module">${code}</script>\n</body>`);
      page = page.replace('__TOKENSCOPE_REPORT_CSP__', () => reportCsp(hash));
      html.source = page;
      html.fileName = 'template.html';
      for (const b of [...chunks, ...css]) delete bundle[b.fileName];
    },
  };
}

export default defineConfig({
  root: resolve(import.meta.dirname, 'renderer/report'),
  base: './',
  plugins: [inlineAll()],
  // React's production build whatever NODE_ENV the caller has (vitest sets `test`).
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: resolve(import.meta.dirname, 'out/report'),
    emptyOutDir: true,
    minify: true,
    modulePreload: false,
    cssCodeSplit: false,
    assetsInlineLimit: () => true,
    rollupOptions: {
      input: { template: resolve(import.meta.dirname, 'renderer/report/report.html') },
      output: { codeSplitting: false },
    },
  },
});
