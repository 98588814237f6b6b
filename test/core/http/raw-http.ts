import net from 'node:net'
import type { FastifyInstance } from 'fastify'

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** Parses one HTTP/1.1 response as it came off the wire (Content-Length bodies only). */
export function parseRawResponse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n')
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: raw.slice(end + 4) }
}

/** The app listening on an ephemeral port of 127.0.0.1; returns the port. */
export async function listenLocally(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  return (app.server.address() as net.AddressInfo).port
}

/**
 * Sends `request` byte for byte on a new connection and reads until the server closes it: the
 * path reaches the server exactly as written (no client normalizes "..", "%2e" or bad escapes).
 */
export function sendRaw(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request))
    let raw = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => { raw += chunk })
    socket.on('error', reject)
    socket.on('close', () => resolve(parseRawResponse(raw)))
  })
}

export const rawGet = (port: number, path: string, headers = '') =>
  sendRaw(port, `GET ${path} HTTP/1.1\r\nHost: app.test\r\n${headers}Connection: close\r\n\r\n`)
