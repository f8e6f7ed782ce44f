// The browser-mode host the workspace tests open projects with: media and inline media served by URL, nothing
// picked or downloaded, events dropped.
import type { Host } from '../../main/api/host'

export const mediaHost: Host = {
  mode: 'browser',
  mediaUrl: (p) => `/media?path=${encodeURIComponent(p)}`,
  inlineMediaUrl: (id) => `/media?inline=${id}`,
  pickSavePath: async () => null,
  offerDownload: (p) => `/download/${encodeURIComponent(p)}`,
  emit: () => undefined
}
