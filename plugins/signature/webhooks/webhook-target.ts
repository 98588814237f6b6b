import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'
import { ERR_WEBHOOK_TARGET_PRIVATE, ERR_WEBHOOK_TARGET_UNRESOLVABLE, ERR_WEBHOOK_URL_INVALID } from './webhook-errors.ts'

// Where a webhook may go. Without WEBHOOKS_ALLOW_PRIVATE an admin could otherwise make the server
// post to its own loopback services or the private network behind it (SSRF). Checked at
// registration, for a clear 400, and again on every connection against the address really used
// (webhook-sender.ts), since a name can resolve elsewhere later.

const PRIVATE = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96]] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6')
}

/** Loopback, private, link-local, shared, reserved, documentation or multicast; IPv4-mapped IPv6 as its IPv4. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4')
  const family = isIP(address)
  if (family === 0) return true
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/** The URL as registered: http(s), no credentials in it, at most 2000 characters. */
export function parseWebhookUrl(value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw ERR_WEBHOOK_URL_INVALID(`Not a URL: ${JSON.stringify(value.slice(0, 100))}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw ERR_WEBHOOK_URL_INVALID('A webhook URL is http:// or https://')
  if (url.username || url.password) throw ERR_WEBHOOK_URL_INVALID('A webhook URL carries no user name or password')
  if (value.length > 2000) throw ERR_WEBHOOK_URL_INVALID('A webhook URL is at most 2000 characters')
  return url
}

/** Every address the host name resolves to must be public (unless private targets are allowed). */
export async function assertPublicTarget(url: URL, allowPrivate: boolean): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)
  } catch (error) {
    throw ERR_WEBHOOK_TARGET_UNRESOLVABLE(`${host} does not resolve: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  if (allowPrivate) return
  const refused = addresses.filter(isPrivateAddress)
  if (refused.length) throw ERR_WEBHOOK_TARGET_PRIVATE(`${host} resolves to ${refused.join(', ')}: a loopback or private address (set WEBHOOKS_ALLOW_PRIVATE=true to allow)`)
}
