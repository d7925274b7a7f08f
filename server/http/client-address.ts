import { isIP } from 'node:net'
import type { Context } from 'hono'
import type { AppEnv } from './env.ts'

/**
 * The address a request came from, for the limits of server/services/throttle.ts. Behind
 * `trustedProxies` proxies of our own (TRUST_PROXY), each appends the address it saw to
 * X-Forwarded-For, so the client is the entry that many places from the right: anything left of it
 * was written by the client and proves nothing. Without proxies, or when that entry is not an
 * address, the socket's peer.
 */
export function clientAddress(c: Context<AppEnv>, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const hops = (c.req.header('X-Forwarded-For') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop !== '')
    const hop = hops.length >= trustedProxies ? hops[hops.length - trustedProxies] : undefined
    if (hop && isIP(hop)) return normalise(hop)
  }
  const peer = c.env?.incoming?.socket?.remoteAddress
  return peer ? normalise(peer) : 'local'
}

/** An IPv4 address seen through an IPv6 socket counts as itself. */
function normalise(address: string): string {
  return address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '')
}
