import { defineConfig } from 'vite';

/**
 * One HTML shell for every embed page (main.tsx picks the page from the path). Assets are
 * content-hashed under /assets/ and listed in .vite/manifest.json, the only files the server
 * serves from here. No modulepreload polyfill: it is an inline script, and the pages run under
 * a CSP that allows none.
 */
export default defineConfig({
  base: '/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
    // ECharts is most of the dashboard's chunk; bench/embed-page.ts holds it to its gzipped budget instead.
    chunkSizeWarningLimit: 800,
  },
});
