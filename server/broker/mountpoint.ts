// A listener's mountpoint, as emqx_mountpoint: the prefix rendered per client at CONNECT
// (`${clientid}`, `${username}`, `${zone}`, `${endpoint_name}`, `${client_attrs.NAME}`; an absent
// value or another name stays as written), put before the topics a client publishes and subscribes to and taken off the
// topics it receives.
import { parseShare } from './topic-trie.ts'

const PLACEHOLDER = /\$\{([^}]*)\}/g

/** The mountpoint for one client; undefined when the listener has none (empty). */
export function renderMountpoint(
  template: string,
  vars: { clientid: string; username: string | undefined; zone: string; clientAttrs?: Readonly<Record<string, string>> },
): string | undefined {
  if (template === '') return undefined
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === 'clientid') return vars.clientid
    if (name === 'username') return vars.username ?? whole
    if (name === 'zone') return vars.zone
    if (name.startsWith('client_attrs.')) return vars.clientAttrs?.[name.slice('client_attrs.'.length)] ?? whole
    return whole
  })
}

/** `t` -> `<mp>t`; a shared subscription keeps its group in front: `$share/g/<mp>t`. */
export function mount(mountpoint: string | undefined, topic: string): string {
  if (mountpoint === undefined) return topic
  const shared = topic.startsWith('$share/') ? parseShare(topic) : undefined
  if (shared?.group !== undefined) return `$share/${shared.group}/${mountpoint}${shared.filter}`
  return mountpoint + topic
}

/** Takes the mountpoint off a topic that starts with it; another topic goes out as it is. */
export function unmount(mountpoint: string | undefined, topic: string): string {
  if (mountpoint === undefined || !topic.startsWith(mountpoint)) return topic
  return topic.slice(mountpoint.length)
}
