// SPEC 5's rules for MQTT bridges and HTTP URLs, checked before a save or a test: every bridge has a
// remote topic; an ingress (source) and an egress (action) on one connector do not share a remote
// topic; topics do not repeat among the connector's sources; an ingress remote topic is a
// shared subscription ($share/...) when the connector is pooled (pool_size > 1) or the cluster has
// more than one node; URL templates only in the path.
import type { FormFieldError } from '../../../../contract/integration-fields/index.ts'

export interface BridgeOnConnector {
  /** `actions` (egress) or `sources` (ingress). */
  kind: 'actions' | 'sources'
  name: string
  topic: string
}

export interface MqttBridgeCheck {
  kind: 'actions' | 'sources'
  /** The bridge being written: its name (to leave itself out of the others) and remote topic. */
  name: string
  topic: string
  /** The connector's pool_size (8 when not set). */
  poolSize: number
  /** Nodes in the cluster. */
  nodes: number
  /** The other actions and sources on the same connector. */
  others: readonly BridgeOnConnector[]
}

const TOPIC = 'parameters.topic'

export function mqttBridgeErrors(check: MqttBridgeCheck): FormFieldError[] {
  const topic = check.topic.trim()
  if (topic === '') return [{ field: TOPIC, key: 'integrationForms.err.remoteTopicRequired' }]
  const others = check.others.filter((other) => !(other.kind === check.kind && other.name === check.name))
  const opposite = check.kind === 'actions' ? 'sources' : 'actions'
  if (others.some((other) => other.kind === opposite && sameTopic(other.topic, topic))) {
    return [{ field: TOPIC, key: 'integrationForms.err.sharedRemoteTopic' }]
  }
  // Two sources subscribing to one remote topic would bring each message in twice; two actions may
  // well publish to the same remote topic.
  if (check.kind === 'sources' && others.some((other) => other.kind === 'sources' && sameTopic(other.topic, topic))) {
    return [{ field: TOPIC, key: 'integrationForms.err.repeatedTopic' }]
  }
  if (check.kind === 'sources' && (check.poolSize > 1 || check.nodes > 1) && !topic.startsWith('$share/')) {
    return [{ field: TOPIC, key: 'integrationForms.err.ingressShare', values: { pool: check.poolSize, nodes: check.nodes } }]
  }
  return []
}

/** `$share/g/t` and `t` name the same remote topic. */
function sameTopic(a: string, b: string): boolean {
  return unshared(a.trim()) === unshared(b.trim())
}

function unshared(topic: string): string {
  const shared = /^\$share\/[^/]+\/(.*)$/.exec(topic)
  return shared ? shared[1] : topic
}

/** An HTTP connector's URL: variables may stand in the path, not in the scheme, host or port. */
export function urlTemplateError(url: string): FormFieldError[] {
  const text = url.trim()
  const authority = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/]*)/.exec(text)?.[1] ?? text.split('/')[0]
  return authority.includes('${') ? [{ field: 'url', key: 'integrationForms.err.urlTemplate' }] : []
}
