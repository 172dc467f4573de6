/**
 * A loopback HTTP server that answers from a script: each request takes the next reply in the
 * queue (or a 500 when the queue is empty) and is recorded with its headers, body and time.
 * For answers the sandbox does not give: the live service's exact bodies, redirects, odd headers.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Reply {
  status: number
  body: string
  headers?: Record<string, string>
}

export interface Received {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: string
  at: number
}

export interface ReplayServer {
  /** Base URL ending in /v1. */
  url: string
  received: Received[]
  /** Adds replies to the end of the queue. */
  queue(...replies: Reply[]): void
  /** Answers every request with this reply once the queue is empty (instead of a 500). */
  otherwise(reply: Reply | undefined): void
  close(): Promise<void>
}

export async function startReplayServer(): Promise<ReplayServer> {
  const replies: Reply[] = []
  const received: Received[] = []
  let fallback: Reply | undefined
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      })
      const reply = replies.shift() ??
        fallback ?? { status: 500, body: '{"errors":{"code":500,"message":"no reply scripted"}}' }
      res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...reply.headers })
      res.end(reply.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the replay server has no port')
  const { port } = address satisfies AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    received,
    queue: (...r) => void replies.push(...r),
    otherwise: (r) => void (fallback = r),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
