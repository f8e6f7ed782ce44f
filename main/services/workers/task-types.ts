// The contract between a task and whoever runs it (a Worker or the current thread): progress out, cancel in.

export interface TaskContext {
  /** Report progress; cheap to call, the runner throttles nothing so callers should call per chunk, not per row. */
  progress(p: { bytesDone: number; rows: number }): void
  /** True once the caller's AbortSignal fired; tasks check it between chunks and return early. */
  aborted(): boolean
}
