// emqx_topic:validate/2 with EMQX's reasons: what is wrong with a topic name (a publish) or a topic
// filter (a subscription, `$share/<group>/<filter>` included), or undefined when nothing is.
const MAX_TOPIC_BYTES = 65535

function levelsError(levels: readonly string[]): string | undefined {
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]
    if (level === '#') {
      if (i !== levels.length - 1) return 'topic_invalid_#'
    } else if (level !== '+' && /[#+\u0000]/.test(level)) {
      return 'topic_invalid_char'
    }
  }
  return undefined
}

export function topicError(kind: 'name' | 'filter', topic: string): string | undefined {
  if (topic === '') return 'empty_topic'
  if (Buffer.byteLength(topic) > MAX_TOPIC_BYTES) return 'topic_too_long'
  if (kind === 'filter' && topic.startsWith('$share/')) return shareError(topic.slice('$share/'.length))
  const levels = topic.split('/')
  const error = levelsError(levels)
  if (error !== undefined) return error
  if (kind === 'name' && levels.some((level) => level === '+' || level === '#')) return 'topic_name_error'
  return undefined
}

function shareError(rest: string): string | undefined {
  if (rest === '' || rest === '/') return 'share_subscription_topic_cannot_be_empty'
  const slash = rest.indexOf('/')
  if (slash === -1) return 'share_subscription_topic_cannot_be_empty'
  const group = rest.slice(0, slash)
  const filter = rest.slice(slash + 1)
  if (group === '') return 'share_subscription_group_name_cannot_be_empty'
  if (filter === '') return 'share_subscription_topic_cannot_be_empty'
  if (filter.startsWith('$share/')) return '$share_cannot_be_used_as_real_topic_filter'
  if (/[+#]/.test(group)) return 'share_subscription_group_name_cannot_include_wildcard'
  return levelsError(filter.split('/'))
}
