// What a reproduced loader returns: the rows of the `datasets.Dataset` its load() builds (from_list applied),
// and where upstream would have written pictures (reported as the case's image_root).
import type { LoaderIO } from './io'

export interface LoaderResult {
  columns: string[]
  rows: Record<string, unknown>[]
  /** The picture folder upstream would use (beside the data); null when the loader writes none. */
  upstreamImageRoot: string | null
  /** Where this run really wrote pictures (io.mediaDir of the above). */
  imageRoot: string | null
}

export type LoaderFn = (kwargs: Record<string, unknown>, io: LoaderIO) => Promise<LoaderResult>
