/**
 * `npm run example:web` serves this app with Vite; /graphql and /downloads go to the service
 * (TITLEGRAPH_URL, default http://localhost:4000: start it with `npm start`), so the page and
 * the API share one origin and no CORS is needed. A build for another origin sets
 * VITE_TITLEGRAPH_URL instead, and the service lists the page's origin in CORS_ORIGINS.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const target = process.env.TITLEGRAPH_URL ?? 'http://localhost:4000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Only the example's own .env files: never the repository's.
  envDir: fileURLToPath(new URL('.', import.meta.url)),
  server: {
    port: 5173,
    proxy: { '/graphql': target, '/downloads': target },
  },
  preview: {
    proxy: { '/graphql': target, '/downloads': target },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
