import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";

/**
 * Dev: the Vite server proxies /api and /files to the API server (`npm run dev` at the root, port
 * 3000). Start that server with APP_URL=http://localhost:5173 so its same-origin check and the links
 * in its mails match the address you browse.
 */
const apiTarget = process.env.REDLINE_API_URL ?? "http://localhost:3000";

export default defineConfig({
  plugins: [
    react(),
    // Each asset also as .br and .gz beside it, served to browsers that accept them (@fastify/static
    // `preCompressed`): the app's JavaScript travels at about a quarter of its size with no work per request.
    compression({ algorithms: ["brotliCompress", "gzip"], exclude: [/\.map$/], threshold: 1024 }),
  ],
  server: {
    port: 5173,
    proxy: {
      // ws: the realtime socket (/api/realtime) goes through the same proxy.
      "/api": { target: apiTarget, changeOrigin: false, ws: true },
      "/files": { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      output: {
        // zod in a chunk of its own: left to the bundler it shares a chunk with react-query's useMutation,
        // and the sign-in form (which needs only the latter) would load all of zod first (issue #34).
        manualChunks: (id) => (/[\\/]node_modules[\\/]zod[\\/]/.test(id) ? "zod" : undefined),
      },
    },
  },
});
