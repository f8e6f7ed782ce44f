// sharp, loaded on first use: loading it (libvips and its bindings) takes a few hundred milliseconds, which every
// `promptloom render` of a text dataset would otherwise pay at startup without ever touching a picture.
import { createRequire } from 'node:module'
import type Sharp from 'sharp'

let loaded: typeof Sharp | undefined

/**
 * Loads sharp in this thread. Call it on the main thread before a worker thread may load it: libvips must stay
 * loaded when a worker that used it exits (MediaEncoder does this before handing a worker an image).
 */
export function loadSharp(): typeof Sharp {
  return (loaded ??= createRequire(__filename)('sharp') as typeof Sharp)
}

/** `sharp(...)`, with the module loaded the first time it is called. */
export const sharp = ((...args: Parameters<typeof Sharp>) => loadSharp()(...args)) as typeof Sharp
