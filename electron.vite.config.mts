// Builds the three Electron bundles plus the Electron-free entries (CLI, browser-mode server) that share the same
// main-process services. Dependencies stay external in main so sharp and friends load from node_modules.
import { resolve } from 'node:path'
import { defineConfig, externalizeDepsPlugin } from 'electron-vite'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('main/electron/main.ts'),
          cli: resolve('main/cli/index.ts'),
          // worker_threads entry for dataset indexing and validation (main/services/workers/pool.ts finds it)
          'dataset-worker': resolve('main/services/workers/worker-entry.ts'),
          // worker_threads entry for `promptloom render` on several cores (main/cli/render-parallel.ts)
          'render-worker': resolve('main/cli/render-worker.ts'),
          // worker_threads entry for lint on several cores (main/services/lint/lint-threads.ts)
          'lint-worker': resolve('main/services/lint/lint-worker.ts')
        }
      }
    }
  },
  preload: {
    plugins: [externalizeDepsPlugin({ exclude: ['zod'] })],
    build: {
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve('main/electron/preload.ts') } }
    }
  },
  renderer: {
    root: resolve('renderer'),
    plugins: [vue()],
    build: {
      outDir: resolve('out/renderer'),
      rollupOptions: { input: { index: resolve('renderer/index.html') } }
    }
  }
})
