import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// `npm run dev:web` forwards API calls to the server of `npm run dev:server` (API_PORT, default 3000).
const apiOrigin = `http://localhost:${process.env.API_PORT ?? "3000"}`;

export default defineConfig({
  root: "src/web",
  publicDir: "../../public",
  plugins: [react()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: true,
    rolldownOptions: {
      output: {
        // The libraries every page needs travel together in one cacheable file.
        codeSplitting: {
          groups: [{ name: "vendor", test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|zod)[\\/]/ }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": apiOrigin, "/dev": apiOrigin },
  },
});
