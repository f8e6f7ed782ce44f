// The Electron security checklist in one place. Dataset content is untrusted and is shown in the renderer, so the
// renderer gets no Node, runs sandboxed and isolated, can navigate nowhere and open nothing.
import type { Session, WebContents, WebPreferences } from 'electron'

export const APP_ORIGIN = 'app://promptloom'

/** Kept in one named constant so a review sees every switch at once. */
export const DEFAULT_WEB_PREFERENCES: WebPreferences = {
  nodeIntegration: false,
  contextIsolation: true,
  sandbox: true,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  spellcheck: false
}

/** Is this URL the app's own (app://promptloom)? Navigation checks use it; IPC also needs the frame to be the top one. */
export function isTrustedSender(frameUrl: string | undefined): boolean {
  if (!frameUrl) return false
  try {
    const u = new URL(frameUrl)
    return u.protocol === 'app:' && u.host === 'promptloom'
  } catch {
    return false
  }
}

/** The parts of an IpcMainInvokeEvent the sender check reads (WebFrameMain's `parent` is null for a top frame). */
export interface IpcSenderLike {
  senderFrame?: { url: string; parent: unknown; frameToken: string } | null
  sender?: { mainFrame?: { frameToken: string } } | null
}

/**
 * Only the app's own top frame may call the API: an iframe inside the app (even an app:// one, or one that
 * navigated there) is refused, so content shown in a frame can never reach main.
 */
export function isTrustedIpcSender(event: IpcSenderLike): boolean {
  const frame = event.senderFrame
  if (!frame || frame.parent !== null) return false
  // By token, not identity: the frame objects Electron hands out need not be the same JS object.
  if (!event.sender?.mainFrame || event.sender.mainFrame.frameToken !== frame.frameToken) return false
  return isTrustedSender(frame.url)
}

export function hardenWebContents(wc: WebContents): void {
  wc.on('will-navigate', (event, url) => {
    if (!isTrustedSender(url)) event.preventDefault()
  })
  wc.on('will-attach-webview', (event) => event.preventDefault())
  wc.setWindowOpenHandler(() => ({ action: 'deny' }))
}

export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
}
