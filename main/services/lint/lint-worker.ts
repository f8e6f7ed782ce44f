// Entry of a lint worker thread (out/main/lint-worker.js, see lint-threads.ts): the compile cache first, then the
// worker itself (lint-worker-run.ts), whose modules it then loads from the cache.
import { useCompileCache } from '../../cli/compile-cache'

useCompileCache()
void import('./lint-worker-run')
