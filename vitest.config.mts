import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['test/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20000,
    pool: 'forks',
    // TMPDIR and the user config folder point into one run folder, removed afterwards.
    globalSetup: ['test/support/vitest-global-setup.mjs']
  }
})
