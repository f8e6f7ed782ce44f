// The folder beside an export that holds assets the export had to write as files (inline or re-encoded media
// given as paths or file:// URLs). Written as a temp folder and moved into place with the export, so a cancelled
// or failed export leaves neither; paths in the export already name the final folder.
import { existsSync } from 'node:fs'
import { mkdir, readdir, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { tempPathFor } from '../fs/atomic-write'

export class MediaDir {
  readonly temp: string
  readonly final: string
  constructor(target: string) {
    this.final = join(dirname(target), `${basename(target).replace(/\.[^.]+$/, '')}_media`)
    this.temp = tempPathFor(this.final)
  }

  /** The folder another thread's MediaDir already chose (a worker writing into the same export's media folder). */
  static at(dirs: { temp: string; final: string }): MediaDir {
    return Object.assign(Object.create(MediaDir.prototype) as MediaDir, dirs)
  }

  /** Moves what was written into the final folder (files are named by content: a file already there is the same). */
  async commit(): Promise<void> {
    if (!existsSync(this.temp)) return
    if (!existsSync(this.final)) {
      await rename(this.temp, this.final)
      return
    }
    await mkdir(this.final, { recursive: true })
    for (const f of await readdir(this.temp)) await rename(join(this.temp, f), join(this.final, f))
    await rm(this.temp, { recursive: true, force: true })
  }

  async abort(): Promise<void> {
    await rm(this.temp, { recursive: true, force: true })
  }
}
