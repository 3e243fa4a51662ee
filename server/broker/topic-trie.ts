// Topic names, topic filters and the trie that matches a published topic against every filter at once.

const MAX_TOPIC_BYTES = 65535

/** A topic name a client may publish to: non-empty, no wildcards, no NUL. */
export function isValidTopicName(topic: string): boolean {
  if (topic.length === 0 || Buffer.byteLength(topic) > MAX_TOPIC_BYTES) return false
  return !/[+#\u0000]/.test(topic)
}

/** A topic filter a client may subscribe to: `+` fills a whole level, `#` only as the whole last level. */
export function isValidFilter(filter: string): boolean {
  if (filter.length === 0 || Buffer.byteLength(filter) > MAX_TOPIC_BYTES || filter.includes('\u0000')) return false
  const levels = filter.split('/')
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]
    if (level === '#') {
      if (i !== levels.length - 1) return false
    } else if (level !== '+' && /[+#]/.test(level)) {
      return false
    }
  }
  return true
}

/** How many levels a topic name or filter has (`a/b/c` has 3). */
export function topicLevels(topic: string): number {
  let levels = 1
  for (let i = 0; i < topic.length; i++) if (topic.charCodeAt(i) === 47) levels++
  return levels
}

export interface SharedFilter {
  /** The filter without the `$share/<group>/` prefix. */
  filter: string
  /** The share group, when the subscription is shared. */
  group?: string
}

/**
 * Splits `$share/<group>/<filter>`; a plain filter comes back unchanged.
 * Returns undefined for a malformed share (empty group, wildcard in the group, no filter).
 */
export function parseShare(topic: string): SharedFilter | undefined {
  // `$queue/<filter>` is EMQX's older spelling of `$share/$queue/<filter>`.
  if (topic.startsWith('$queue/')) {
    const filter = topic.slice('$queue/'.length)
    return filter.length > 0 ? { filter, group: '$queue' } : undefined
  }
  if (!topic.startsWith('$share/')) return { filter: topic }
  const rest = topic.slice('$share/'.length)
  const slash = rest.indexOf('/')
  if (slash <= 0) return undefined
  const group = rest.slice(0, slash)
  const filter = rest.slice(slash + 1)
  if (/[+#]/.test(group) || filter.length === 0) return undefined
  return { filter, group }
}

/**
 * Whether `topic` matches `filter`, level by level. A topic whose first level starts with `$`
 * is not matched by a leading wildcard (MQTT 4.7.2).
 */
export function matchesFilter(filter: string, topic: string): boolean {
  // Walks both strings level by level without splitting them: authorization runs this for every
  // rule on every publish.
  const first = filter.charCodeAt(0)
  if (topic.charCodeAt(0) === DOLLAR && (first === PLUS || first === HASH) && (filter.length === 1 || filter.charCodeAt(1) === SLASH)) return false
  let f = 0
  let t = 0
  let topicLeft = true
  for (;;) {
    const fSlash = filter.indexOf('/', f)
    const fEnd = fSlash === -1 ? filter.length : fSlash
    const single = fEnd - f === 1
    if (single && filter.charCodeAt(f) === HASH) return true
    if (!topicLeft) return false
    const tSlash = topic.indexOf('/', t)
    const tEnd = tSlash === -1 ? topic.length : tSlash
    if (!(single && filter.charCodeAt(f) === PLUS)) {
      if (tEnd - t !== fEnd - f) return false
      for (let k = 0; k < fEnd - f; k++) if (filter.charCodeAt(f + k) !== topic.charCodeAt(t + k)) return false
    }
    if (tSlash === -1) topicLeft = false
    else t = tSlash + 1
    if (fSlash === -1) return !topicLeft
    f = fSlash + 1
  }
}

const DOLLAR = 0x24
const PLUS = 0x2b
const HASH = 0x23
const SLASH = 0x2f

class TrieNode<V> {
  readonly children = new Map<string, TrieNode<V>>()
  /** Entries subscribed with exactly the filter that ends at this node. */
  entries: Map<string, V> | undefined
  filter = ''
}

/**
 * Filters stored level by level. Each filter holds entries keyed by a caller-chosen key
 * (a client id, say), so the same filter subscribed by many clients is stored once.
 */
export class TopicTrie<V> {
  private readonly root = new TrieNode<V>()
  private filters = 0

  /** How many distinct filters have at least one entry. */
  get filterCount(): number {
    return this.filters
  }

  /** Adds or replaces an entry; returns true when the key was new for this filter. */
  add(filter: string, key: string, value: V): boolean {
    let node = this.root
    for (const level of filter.split('/')) {
      let child = node.children.get(level)
      if (!child) {
        child = new TrieNode<V>()
        node.children.set(level, child)
      }
      node = child
    }
    if (!node.entries) {
      node.entries = new Map()
      node.filter = filter
      this.filters++
    }
    const isNew = !node.entries.has(key)
    node.entries.set(key, value)
    return isNew
  }

  /** Removes an entry and prunes branches left empty; returns whether it existed. */
  remove(filter: string, key: string): boolean {
    const path: Array<[TrieNode<V>, string]> = []
    let node = this.root
    for (const level of filter.split('/')) {
      const child = node.children.get(level)
      if (!child) return false
      path.push([node, level])
      node = child
    }
    if (!node.entries?.delete(key)) return false
    if (node.entries.size === 0) {
      node.entries = undefined
      this.filters--
    }
    for (let i = path.length - 1; i >= 0; i--) {
      const [parent, level] = path[i]
      const child = parent.children.get(level)!
      if (child.entries || child.children.size > 0) break
      parent.children.delete(level)
    }
    return true
  }

  /** Calls `visit` for every entry whose filter matches the topic name. */
  match(topic: string, visit: (value: V, filter: string, key: string) => void): void {
    const levels = topic.split('/')
    const emit = (node: TrieNode<V> | undefined) => {
      if (node?.entries) for (const [key, value] of node.entries) visit(value, node.filter, key)
    }
    const walk = (node: TrieNode<V>, i: number) => {
      if (i === levels.length) {
        emit(node)
        // `a/#` also matches `a` itself.
        emit(node.children.get('#'))
        return
      }
      const wildcardsAllowed = !(i === 0 && levels[0].startsWith('$'))
      if (wildcardsAllowed) {
        emit(node.children.get('#'))
        const plus = node.children.get('+')
        if (plus) walk(plus, i + 1)
      }
      const exact = node.children.get(levels[i])
      if (exact) walk(exact, i + 1)
    }
    walk(this.root, 0)
  }
}
