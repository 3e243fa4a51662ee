// A create flow (connectors, actions, sources): step 1 picks the type from those the server offers,
// step 2 is its form with 5.8's defaults, Test connectivity and Create. `?from=<id>` duplicates:
// that object's type and config, under SPEC 4's copy name; `?type=<type>` starts at the form.
import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { typesWith, type IntegrationRole } from '../../../../contract/integration-fields/index.ts'
import type { Api } from '../../../api/index.ts'
import { useApi } from '../../../app/useApi.ts'
import { useServerData } from '../../../app/useServerData.ts'
import { searchText } from '../../../routes/searchValues.ts'
import { duplicateName } from '../../../ui/duplicateName.ts'
import { KIND_OF } from './commandsOf.ts'
import { IntegrationEditor } from './IntegrationEditor.tsx'
import { TypePicker } from './TypePicker.tsx'
import { typeLabel } from './typeLabels.ts'
import './forms.css'

const PATHS = {
  connector: { list: '/connector/list', detail: '/connector/' },
  action: { list: '/rule/actions', detail: '/rule/actions/' },
  source: { list: '/rule/sources', detail: '/rule/sources/' },
} as const

/** The types offered: the server's (a connector's are its actions' and sources'), the catalogue's first; the catalogue's when the server cannot say. */
async function offeredTypes(api: Api, role: IntegrationRole, signal: AbortSignal): Promise<string[]> {
  const known = typesWith(role)
  const fromServer = async () => {
    if (role === 'action') return api.connectors.actions.types(signal)
    if (role === 'source') return api.connectors.sources.types(signal)
    const [actions, sources] = await Promise.all([api.connectors.actions.types(signal), api.connectors.sources.types(signal)])
    return [...actions, ...sources]
  }
  const served = new Set(await fromServer().catch(() => known))
  return [...known.filter((type) => served.has(type)), ...[...served].filter((type) => !known.includes(type)).sort()]
}

interface Duplicate {
  type: string
  name: string
  connector?: string
  config: Record<string, unknown>
}

async function readDuplicate(api: Api, role: IntegrationRole, id: string, signal: AbortSignal): Promise<Duplicate> {
  const answer = role === 'connector' ? await api.connectors.get(id, signal) : await api.connectors[KIND_OF[role] as 'actions' | 'sources'].get(id, signal)
  const connector = 'connector' in answer && typeof answer.connector === 'string' ? answer.connector : undefined
  return { type: answer.type, name: duplicateName(answer.name), connector, config: answer }
}

export function IntegrationCreate({ role }: { role: IntegrationRole }) {
  const { t } = useTranslation()
  const api = useApi()
  const navigate = useNavigate()
  const raw: Record<string, unknown> = useSearch({ strict: false })
  const from = searchText(raw.from)
  const startType = searchText(raw.type)
  const [picked, setPicked] = useState(startType ?? '')
  const [step, setStep] = useState<'type' | 'form'>(startType ? 'form' : 'type')
  const types = useServerData([], (signal) => offeredTypes(api, role, signal), [api, role])
  const duplicate = useServerData([], (signal) => (from ? readDuplicate(api, role, from, signal) : Promise.resolve(null)), [api, role, from])
  const paths = PATHS[role]
  const type = duplicate.data?.type ?? (picked || types.data?.[0] || '')
  const title = t(from ? `integrationForms.duplicateTitle.${role}` : `integrationForms.createTitle.${role}`)

  const done = (id: string) => void navigate({ to: `${paths.detail}${encodeURIComponent(id)}` })
  let body
  if (from) {
    if (duplicate.error) body = <p className="field-error" role="alert">{duplicate.error}</p>
    else if (!duplicate.data) body = <p className="muted">{t('common.loading')}</p>
    else {
      const copy = duplicate.data
      body = <IntegrationEditor key={from} role={role} type={copy.type} config={copy.config} name={copy.name} connector={copy.connector} onDone={done} />
    }
  } else if (step === 'type') {
    body = (
      <>
        <TypePicker
          types={types.data ?? []}
          value={type}
          onChange={setPicked}
          onPick={(chosen) => {
            setPicked(chosen)
            setStep('form')
          }}
        />
        <div className="form-actions">
          <button type="button" className="btn btn-primary" disabled={!type} onClick={() => setStep('form')}>
            {t('integrationForms.next')}
          </button>
        </div>
      </>
    )
  } else {
    body = (
      <IntegrationEditor
        key={type}
        role={role}
        type={type}
        onDone={done}
        extraButtons={
          <button type="button" className="btn" onClick={() => setStep('type')}>
            {t('integrationForms.back')}
          </button>
        }
      />
    )
  }

  return (
    <div className="page integration-create">
      <div className="page-header">
        <h1>{title}</h1>
        <div>
          <Link to={paths.list} className="btn">
            {t('common.cancel')}
          </Link>
        </div>
      </div>
      <ol className="flow-steps" aria-label={t('integrationForms.stepsLabel')}>
        <li aria-current={step === 'type' && !from ? 'step' : undefined}>1. {t('integrationForms.step.type')}</li>
        <li aria-current={step === 'form' || from ? 'step' : undefined}>
          2. {t('integrationForms.step.form')}
          {step === 'form' || from ? ` · ${typeLabel(t, type)}` : ''}
        </li>
      </ol>
      {body}
    </div>
  )
}
