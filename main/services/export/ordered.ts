// Runs an async step over a stream with up to `window` items in flight, yielding results in input order: media
// encodings of the next rows proceed while the current one is written, and no more than `window` are held.

export async function* ordered<T, R>(items: AsyncIterable<T>, step: (item: T) => Promise<R>, window: number): AsyncGenerator<R> {
  const queue: Promise<R>[] = []
  try {
    for await (const it of items) {
      const p = step(it)
      // A rejection is seen when its turn comes; until then it must not count as unhandled.
      p.catch(() => {})
      queue.push(p)
      if (queue.length >= window) yield await queue.shift()!
    }
    while (queue.length) yield await queue.shift()!
  } finally {
    // Stopped early (cancel, error): let the steps in flight finish quietly.
    queue.length = 0
  }
}
