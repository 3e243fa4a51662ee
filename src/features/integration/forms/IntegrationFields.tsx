// A data-integration form's body: the name (on create) and the connector (actions and sources)
// first, then the catalogue's fields in sections: connection or parameters, TLS, and the advanced
// fields with the resource options collapsed. A type the catalogue lacks (an enterprise type on a
// real EMQX) is edited as the JSON the server answered.
import { useMemo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { FieldDescriptor } from '../../../../commands/args.ts'
import { isShown, type IntegrationRole } from '../../../../contract/integration-fields/index.ts'
import { SchemaFields } from '../../../ui/SchemaForm.tsx'
import { SECTIONS, descriptorOf, sectionOf, type FormSection } from './descriptors.ts'
import { NAME, RAW, type IntegrationForm } from './useIntegrationForm.ts'
import './forms.css'

export interface IntegrationFieldsProps {
  role: IntegrationRole
  form: IntegrationForm
  /** Show the name field (create and duplicate; settings edit an object whose name is fixed). */
  withName: boolean
  /** The connector picker of an action or source. */
  connector?: ReactNode
  onSubmit(): void
}

const NAME_FIELD: FieldDescriptor = { name: NAME, kind: 'string', required: true, label: 'integration.field.name', description: 'integration.hint.name' }
const RAW_FIELD: FieldDescriptor = { name: RAW, kind: 'json', required: true, label: 'integrationForms.rawConfig', description: 'integrationForms.rawConfigHint' }

export function IntegrationFields({ role, form, withName, connector, onSubmit }: IntegrationFieldsProps) {
  const { t } = useTranslation()
  const { fields, values, onChange, errors } = form
  const shown = fields ? fields.filter((field) => isShown(field, values)) : []
  const shownKey = shown.map((field) => field.path).join()
  const bySection = useMemo(() => {
    const out = new Map<FormSection, FieldDescriptor[]>(['basic' as const, ...SECTIONS].map((section) => [section, []]))
    for (const field of shown) out.get(sectionOf(field, role))?.push(descriptorOf(field))
    return out
    // The shown fields change only with the values their conditions read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shownKey, role])
  const common = { values, onChange, errors, onSubmit }
  const basic = bySection.get('basic') ?? []

  return (
    <div className="integration-fields">
      {withName || connector || basic.length ? (
        <fieldset className="integration-section">
          <legend>{t('integrationForms.section.basic')}</legend>
          {withName ? <SchemaFields fields={[NAME_FIELD]} {...common} /> : null}
          {connector}
          {basic.length ? <SchemaFields fields={basic} {...common} /> : null}
        </fieldset>
      ) : null}
      {fields ? (
        SECTIONS.map((section) => {
          const list = bySection.get(section) ?? []
          if (list.length === 0) return null
          const body = <SchemaFields fields={list} {...common} />
          const title = t(`integrationForms.section.${section}`)
          if (section === 'advanced') {
            const hasError = errors.some((e) => list.some((f) => f.name === e.field))
            return (
              <details key={section} className="integration-section integration-advanced" open={hasError || undefined}>
                <summary>{title}</summary>
                <div className="integration-section-body">{body}</div>
              </details>
            )
          }
          return (
            <fieldset key={section} className="integration-section">
              <legend>{title}</legend>
              {body}
            </fieldset>
          )
        })
      ) : (
        <fieldset className="integration-section">
          <legend>{t('integrationForms.section.raw')}</legend>
          <p className="muted">{t('integrationForms.noCatalogue')}</p>
          <SchemaFields fields={[RAW_FIELD]} {...common} />
        </fieldset>
      )}
    </div>
  )
}
