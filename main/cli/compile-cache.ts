// V8's compiled code for the bundles, kept between runs in the user's cache folder (not in /tmp): later runs skip
// compiling ~1 MB of JavaScript. NODE_DISABLE_COMPILE_CACHE=1 turns it off; NODE_COMPILE_CACHE picks the folder.
// Each thread enables it for itself (render workers too), before it loads the bundles' chunks.
import { enableCompileCache } from 'node:module'
import { homedir } from 'node:os'
import { join } from 'node:path'

export function useCompileCache(): void {
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache')
  enableCompileCache?.(process.env.NODE_COMPILE_CACHE || join(cacheHome, 'promptloom', 'node-compile-cache'))
}
