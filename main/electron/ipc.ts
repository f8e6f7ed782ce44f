// Registers one ipcMain handler per contract channel. Each call is checked for its sender frame, its arguments are
// validated in the dispatcher, and it answers with an envelope, never a raw exception.
import type { IpcMain, IpcMainInvokeEvent } from 'electron'
import { CHANNELS } from '../../shared/api/contract'
import type { Envelope } from '../api/envelope'
import { isTrustedIpcSender } from './security'

export function registerIpcHandlers(ipcMain: IpcMain, dispatch: (channel: string, args: unknown) => Promise<Envelope>): void {
  for (const channel of CHANNELS) {
    ipcMain.handle(`api:${channel}`, async (event: IpcMainInvokeEvent, ...args: unknown[]): Promise<Envelope> => {
      if (!isTrustedIpcSender(event)) return { ok: false, error: `${channel}: refused: untrusted sender` }
      return dispatch(channel, args)
    })
  }
}
