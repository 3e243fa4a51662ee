// What the operator has typed into the subscribe and publish forms, per connection, kept in the
// app's jotai store so it is still there after navigating away and back (as the connections are).
import { atom, useAtom } from 'jotai'
import { useCallback } from 'react'
import type { PayloadEncoding } from '../../testclient/payload.ts'

export interface SubscribeDraft {
  topic: string
  qos: 0 | 1 | 2
  nl: boolean
  rap: boolean
  rh: 0 | 1 | 2
  subid: string
}

export interface PublishDraft {
  topic: string
  qos: 0 | 1 | 2
  retain: boolean
  payload: string
  encoding: PayloadEncoding
  payloadFormatIndicator: boolean
  messageExpiryInterval: string
  contentType: string
  responseTopic: string
  correlationData: string
  userProperties: [string, string][]
  topicAlias: string
}

/** SPEC 9: the default test topic. */
export const DEFAULT_TOPIC = 't/#'

export const newSubscribeDraft = (): SubscribeDraft => ({ topic: DEFAULT_TOPIC, qos: 0, nl: false, rap: false, rh: 0, subid: '' })
export const newPublishDraft = (): PublishDraft => ({
  topic: 't/1',
  qos: 0,
  retain: false,
  payload: '{ "msg": "hello" }',
  encoding: 'json',
  payloadFormatIndicator: false,
  messageExpiryInterval: '',
  contentType: '',
  responseTopic: '',
  correlationData: '',
  userProperties: [['', '']],
  topicAlias: '',
})

const subscribeDraftsAtom = atom<Readonly<Record<string, SubscribeDraft>>>({})
const publishDraftsAtom = atom<Readonly<Record<string, PublishDraft>>>({})

export function useSubscribeDraft(connection: string): [SubscribeDraft, (patch: Partial<SubscribeDraft>) => void] {
  const [drafts, setDrafts] = useAtom(subscribeDraftsAtom)
  const update = useCallback(
    (patch: Partial<SubscribeDraft>) => setDrafts((all) => ({ ...all, [connection]: { ...(all[connection] ?? newSubscribeDraft()), ...patch } })),
    [connection, setDrafts],
  )
  return [drafts[connection] ?? newSubscribeDraft(), update]
}

export function usePublishDraft(connection: string): [PublishDraft, (patch: Partial<PublishDraft>) => void] {
  const [drafts, setDrafts] = useAtom(publishDraftsAtom)
  const update = useCallback(
    (patch: Partial<PublishDraft>) => setDrafts((all) => ({ ...all, [connection]: { ...(all[connection] ?? newPublishDraft()), ...patch } })),
    [connection, setDrafts],
  )
  return [drafts[connection] ?? newPublishDraft(), update]
}
