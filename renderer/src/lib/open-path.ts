// Opening a project by path, and by a file dropped on the window. With context isolation a dropped File has no
// path; the Electron preload answers it through webUtils (window.promptloomFiles). Browser mode cannot know the
// path of a dropped file at all, so it says how to open it instead.
import { api } from './api'
import { useWorkspace } from '../stores/workspace'

/** Opens `path` as the project; returns an error message, or null when it opened. */
export async function openPath(path: string, mediaFolder?: string): Promise<string | null> {
  const ws = useWorkspace()
  // No second argument unless there is a folder: an `undefined` in the argument list travels as null over HTTP.
  await ws.load(() => (mediaFolder ? api.project.open(path, { mediaFolder }) : api.project.open(path)))
  return ws.error
}

export const DROP_NEEDS_DESKTOP = 'Drag and drop needs the desktop app: in the browser, press o and type the path.'

/** The path of a dropped file, or null where the host cannot tell it. */
export function droppedPath(e: DragEvent): string | null {
  const file = e.dataTransfer?.files?.[0]
  if (!file || !window.promptloomFiles) return null
  try {
    return window.promptloomFiles.pathForFile(file) || null
  } catch {
    return null
  }
}

/** Window-wide drop target; returns a function that removes the listeners. */
export function installDropOpen(onNotice: (message: string) => void): () => void {
  const over = (e: DragEvent) => {
    if (e.dataTransfer?.types.includes('Files')) e.preventDefault()
  }
  const drop = async (e: DragEvent) => {
    if (!e.dataTransfer?.types.includes('Files')) return
    e.preventDefault()
    const path = droppedPath(e)
    if (!path) return onNotice(DROP_NEEDS_DESKTOP)
    const err = await openPath(path)
    onNotice(err ? `Could not open ${path}: ${err}` : `Opened ${path}`)
  }
  window.addEventListener('dragover', over)
  window.addEventListener('drop', drop)
  return () => {
    window.removeEventListener('dragover', over)
    window.removeEventListener('drop', drop)
  }
}
