// Electron entry: one hardened window on app://promptloom, the API on IPC, media on media://.
import { app, BrowserWindow, dialog, ipcMain, nativeTheme, protocol, session } from 'electron'
import { join } from 'node:path'
import { createApi } from '../api/create-api'
import { configureWorkers } from '../services/workers/pool'
import { removeOpenTemps } from '../services/fs/atomic-write'
import type { Host } from '../api/host'
import { registerIpcHandlers } from './ipc'
import { inlineMediaUrlFor, mediaUrlFor, PRIVILEGED_SCHEMES, registerProtocols } from './protocols'
import { APP_ORIGIN, DEFAULT_WEB_PREFERENCES, denyAllPermissions, hardenWebContents } from './security'

// Dataset indexing runs on worker threads; the bundled worker sits beside this entry file.
configureWorkers({ workerFile: join(__dirname, 'dataset-worker.js') })

protocol.registerSchemesAsPrivileged(PRIVILEGED_SCHEMES)

let win: BrowserWindow | null = null

const host: Host = {
  mode: 'electron',
  mediaUrl: mediaUrlFor,
  inlineMediaUrl: inlineMediaUrlFor,
  async pickSavePath(defaultName) {
    const r = await dialog.showSaveDialog(win ?? undefined!, {
      defaultPath: defaultName,
      filters: [{ name: 'JSON Lines', extensions: ['jsonl'] }]
    })
    return r.canceled || !r.filePath ? null : r.filePath
  },
  async pickOpenPath(kind) {
    const r = await dialog.showOpenDialog(win ?? undefined!, {
      properties: [kind === 'folder' ? 'openDirectory' : 'openFile'],
      filters: kind === 'file' ? [{ name: 'Datasets, configs, projects', extensions: ['jsonl', 'json', 'csv', 'tsv', 'parquet', 'arrow', 'py', 'yaml', 'yml'] }, { name: 'All files', extensions: ['*'] }] : undefined
    })
    return r.canceled || !r.filePaths[0] ? null : r.filePaths[0]
  },
  emit(event, payload) {
    win?.webContents.send(`event:${event}`, payload)
  }
}

const api = createApi(host, { startPath: process.argv.find((a, i) => i > 0 && !a.startsWith('-') && a !== '.') })

app.enableSandbox()
app.on('web-contents-created', (_e, wc) => hardenWebContents(wc))
app.on('window-all-closed', () => app.quit())
// Curation is committed as it happens; closing only releases the project's SQLite file.
app.on('before-quit', () => api.workspace.close())
// An export still running when the app quits leaves no temp file behind (its output is never half-written).
app.on('will-quit', () => removeOpenTemps())

app.whenReady().then(() => {
  denyAllPermissions(session.defaultSession)
  registerProtocols(protocol, join(__dirname, '../renderer'), () => api.roots())
  registerIpcHandlers(ipcMain, api.dispatch)
  win = new BrowserWindow({
    width: 1400,
    height: 900,
    show: false,
    title: 'PromptLoom',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#16181d' : '#fbfbfa',
    webPreferences: { ...DEFAULT_WEB_PREFERENCES, preload: join(__dirname, '../preload/index.js') }
  })
  win.once('ready-to-show', () => win?.show())
  void win.loadURL(`${APP_ORIGIN}/`)
})
