/**
 * Serving the built renderer over app://app/ (a custom protocol instead of file://):
 * which file a URL names, refusing anything outside the renderer folder.
 */
import { readFile } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import { APP_ORIGIN } from './security'

// Node loads its fetch classes, Response among them, on their first use: 10-20 ms on a busy
// machine. Taken here, as main's modules load before app ready, rather than when the window's
// first page is served.
const { Response } = globalThis

export const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

/** The file for an app:// URL, or undefined when the URL is not the app's or escapes its folder. */
export function resolveAppFile(rendererDir: string, url: string): { path: string; mime: string } | undefined {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return undefined
  }
  if (`${u.protocol}//${u.host}` !== APP_ORIGIN) return undefined
  let rel: string
  try {
    rel = decodeURIComponent(u.pathname)
  } catch {
    return undefined
  }
  if (rel === '/' || rel === '') rel = '/index.html'
  const root = resolve(rendererDir)
  const path = resolve(root, `.${rel}`)
  if (path !== root && !path.startsWith(root + sep)) return undefined
  const mime = MIME_TYPES[extname(path)]
  // Unknown types are not served: the renderer has no business loading them.
  return mime ? { path, mime } : undefined
}

/**
 * The app:// handler: the built renderer's files with the CSP and nosniff headers, a 404 for
 * anything else (another origin, a path out of the folder, a type the renderer never loads).
 */
export function createAppProtocolHandler(
  rendererDir: string,
  csp: string,
): (request: { url: string }) => Promise<Response> {
  return async (request) => {
    const file = resolveAppFile(rendererDir, request.url)
    if (!file) return new Response('Not found', { status: 404 })
    try {
      const body = await readFile(file.path)
      return new Response(body, {
        headers: { 'content-type': file.mime, 'content-security-policy': csp, 'x-content-type-options': 'nosniff' },
      })
    } catch {
      return new Response('Not found', { status: 404 })
    }
  }
}
