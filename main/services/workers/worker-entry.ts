// Entry point of a dataset worker thread. The built app ships it as out/main/dataset-worker.js (an extra
// electron-vite input); under tsx (benchmarks) the TypeScript source runs directly. The compile cache first, then
// the worker itself (worker-run.ts), whose modules it then loads from the cache: each worker compiled ~1 MB of
// bundle again, 0.2–0.3 s of CPU per worker in every promptloom command.
import { useCompileCache } from '../../cli/compile-cache'

useCompileCache()
void import('./worker-run')
