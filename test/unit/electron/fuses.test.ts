// The packaged app's Electron fuses (issue #10, item 10): electron-builder flips them from electron-builder.yml,
// so the file must name each one, with the safe value, under a key electron-builder's own schema accepts.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const root = join(__dirname, '../../..')
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8'))
const schema = JSON.parse(readFileSync(join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8'))

describe('electron fuses', () => {
  it('turn off running as Node, NODE_OPTIONS and --inspect, and load the app only from an intact asar', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false
    })
  })

  it('uses only fuse names the installed electron-builder knows', () => {
    const known = Object.keys(schema.definitions.FuseOptionsV1.properties)
    for (const name of Object.keys(config.electronFuses)) expect(known).toContain(name)
  })
})
