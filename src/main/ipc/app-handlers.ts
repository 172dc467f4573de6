/** The app's own channels; the only ones that answer when the app could not start. */
import type { AppChannel } from '@shared/ipc/channels'
import type { AppControl } from './app-control'
import { local, localDone } from './channel'
import type { ChannelHandlers } from './handlers'

export function createAppHandlers(app: AppControl, quitConfirmed: () => void): Pick<ChannelHandlers, AppChannel> {
  return {
    'app.quit': localDone('app.quit', () => quitConfirmed()),
    'app.unsavedWork': localDone('app.unsavedWork', (p) => app.setUnsavedWork(p.count)),
    'app.startup': local('app.startup', async () => app.startup()),
    'app.diagnostics': local('app.diagnostics', () => app.diagnostics()),
    'app.openLogFolder': localDone('app.openLogFolder', () => app.openLogFolder()),
    'app.copyText': localDone('app.copyText', (p) => app.copyText(p.text)),
    'app.reportError': localDone('app.reportError', (p) => app.reportError(p)),
  }
}
