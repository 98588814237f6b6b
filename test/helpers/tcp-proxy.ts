// A real network fault between the app and a shared server (PostgreSQL, Redis) without touching
// the server, which other people's tests use: the app connects here and the proxy forwards.
import net from 'node:net'

export interface TcpProxy {
  port: number
  /** Local ports of the proxy's own connections to the server (pg_stat_activity.client_port). */
  upstreamPorts(): number[]
  /** Connections accepted so far, forwarded or not. */
  accepted(): number
  /** Bytes forwarded so far, each way, over every connection. */
  bytes(): { toServer: number; toClient: number }
  /** Open connections go silent both ways and new ones are accepted but not forwarded (a paused server). */
  pause(): void
  /** Every connection is cut and new ones are closed at once (a server gone). */
  cut(): void
  /** Forward again; paused connections carry on where they stopped. */
  restore(): void
  close(): Promise<void>
}

type Mode = 'forward' | 'paused' | 'cut'

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = 'forward'
  const pairs = new Set<{ client: net.Socket; upstream?: net.Socket }>()
  const waiting = new Set<net.Socket>()

  const forward = (client: net.Socket) => {
    const pair: { client: net.Socket; upstream?: net.Socket } = { client }
    pairs.add(pair)
    const upstream = net.connect(target)
    pair.upstream = upstream
    client.pipe(upstream)
    upstream.pipe(client)
    client.on('data', (chunk: Buffer) => { forwarded.toServer += chunk.length })
    upstream.on('data', (chunk: Buffer) => { forwarded.toClient += chunk.length })
    const end = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
  }

  let accepted = 0
  const forwarded = { toServer: 0, toClient: 0 }
  const server = net.createServer((client) => {
    accepted++
    if (mode === 'cut') return client.destroy()
    if (mode === 'paused') {
      waiting.add(client)
      client.pause()
      client.on('error', () => waiting.delete(client)).on('close', () => waiting.delete(client))
      return
    }
    forward(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port

  return {
    port,
    accepted: () => accepted,
    bytes: () => ({ ...forwarded }),
    upstreamPorts: () => [...pairs].flatMap(({ upstream }) => (upstream?.localPort ? [upstream.localPort] : [])),
    pause() {
      mode = 'paused'
      // Unpiped as well as paused: a pipe resumes its source on the destination's next drain.
      for (const { client, upstream } of pairs) {
        if (!upstream) continue
        client.unpipe(upstream)
        upstream.unpipe(client)
        client.pause()
        upstream.pause()
      }
    },
    cut() {
      mode = 'cut'
      for (const { client, upstream } of pairs) {
        client.destroy()
        upstream?.destroy()
      }
      for (const client of waiting) client.destroy()
    },
    restore() {
      mode = 'forward'
      for (const { client, upstream } of pairs) {
        if (!upstream || client.destroyed || upstream.destroyed) continue
        client.pipe(upstream)
        upstream.pipe(client)
      }
      for (const client of waiting) {
        waiting.delete(client)
        if (!client.destroyed) {
          forward(client)
        }
      }
    },
    async close() {
      mode = 'cut'
      for (const { client, upstream } of pairs) {
        client.destroy()
        upstream?.destroy()
      }
      for (const client of waiting) client.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** `url` with its host and port replaced by the proxy's. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const parsed = new URL(url)
  parsed.hostname = '127.0.0.1'
  parsed.port = String(proxy.port)
  return parsed.toString()
}
