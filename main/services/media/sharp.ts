// sharp, loaded on first use: loading it (libvips and its bindings) takes a few hundred milliseconds, which every
// `promptloom render` of a text dataset would otherwise pay at startup without ever touching a picture.
import { createRequire } from 'node:module'
import type Sharp from 'sharp'

let loaded: typeof Sharp | undefined

function load(): typeof Sharp {
  return (loaded ??= createRequire(__filename)('sharp') as typeof Sharp)
}

/** `sharp(...)`, with the module loaded the first time it is called. */
export const sharp = ((...args: Parameters<typeof Sharp>) => load()(...args)) as typeof Sharp
