/** deploy/haproxy.cfg rendered for other ports and servers (scripts/haproxy-config.mjs). */
export function haproxyConfig(options: {
  bind: string;
  servers: { name: string; address: string }[];
  inter?: string;
  fastinter?: string;
}): string;
