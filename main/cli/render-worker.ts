// Entry of a render worker thread (out/main/render-worker.js, see render-parallel.ts): the compile cache first, then
// the worker itself (render-worker-run.ts), whose modules it then loads from the cache.
import { useCompileCache } from './compile-cache'

useCompileCache()
void import('./render-worker-run')
