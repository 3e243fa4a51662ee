// Add an authorization source: pick its type from cards, then its form (authz.createSource's
// fields for that type, with EMQX's defaults); what the server refuses is shown in its words.
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { createAuthzSource } from '../../../commands/authz.ts'
import { AUTHZ_SOURCE_TYPES, type AuthzSourceType } from '../../../contract/authz.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import './authz.css'

/** The fields of authz.createSource each type uses; the others stay out of its form. */
const FIELDS_OF: Partial<Record<AuthzSourceType, readonly string[]>> = {
  http: ['url', 'method'],
  built_in_database: ['max_rules'],
  mysql: ['server', 'database', 'username', 'password', 'query'],
  postgresql: ['server', 'database', 'username', 'password', 'query'],
  redis: ['server', 'password', 'cmd'],
  mongodb: ['server', 'database', 'collection', 'filter', 'username', 'password'],
  ldap: ['server', 'username', 'password', 'base_dn', 'filter'],
}
const ALL_FIELDS = ['type', 'url', 'method', 'max_rules', 'server', 'database', 'username', 'password', 'query', 'cmd', 'collection', 'filter', 'base_dn']

export function AuthzCreate() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [type, setType] = useState<AuthzSourceType | null>(null)
  const shown = type ? (FIELDS_OF[type] ?? []) : []

  return (
    <div className="page authz-create-page">
      <PageHeader title={t('authz.createTitle')} />
      <p className="muted authz-intro">{t('authz.pickType')}</p>
      <div className="authz-types" role="group" aria-label={t('authz.pickType')}>
        {AUTHZ_SOURCE_TYPES.map((each) => (
          <button key={each} type="button" className="card authz-type-card" aria-pressed={type === each} onClick={() => setType(each)}>
            <strong>{t(`authz.type.${each}`)}</strong>
            <span className="muted">{t(`authz.typeHint.${each}`)}</span>
          </button>
        ))}
      </div>
      {type ? (
        <CommandDialog
          key={type}
          command={createAuthzSource}
          title={t('authz.createOf', { type: t(`authz.type.${type}`) })}
          testId="authz-create"
          fixed={ALL_FIELDS.filter((field) => !shown.includes(field))}
          values={{ type }}
          submitLabel={t('authz.createSubmit')}
          onDone={() => void navigate({ to: '/authorization/list' })}
          onClose={() => setType(null)}
        />
      ) : null}
    </div>
  )
}
