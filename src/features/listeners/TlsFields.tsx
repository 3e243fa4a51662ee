// The TLS section of a listener form: the certificate, key and CA, each pasted as PEM or read from
// a file (crt, key, pem, jks, der, cer, pfx; DER is turned into PEM); a file that cannot be used
// (a JKS or PKCS #12 store, anything but a certificate or key) says 'Upload Failed'.
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CERT_EXTENSIONS, PEM_FIELDS, readPemFile } from './listenerFields.ts'

const LABELS: Record<(typeof PEM_FIELDS)[number], string> = {
  certfile: 'form.field.certfile',
  keyfile: 'form.field.keyfile',
  cacertfile: 'form.field.cacertfile',
}

export function TlsFields({ values, onChange, editing }: { values: Record<string, string>; onChange(name: string, value: string): void; editing: boolean }) {
  const { t } = useTranslation()
  const idBase = useId()
  const [failed, setFailed] = useState<Record<string, boolean>>({})

  const upload = async (name: (typeof PEM_FIELDS)[number], file: File | undefined) => {
    if (!file) return
    const pem = await readPemFile(file, name)
    setFailed((current) => ({ ...current, [name]: pem === undefined }))
    if (pem !== undefined) onChange(name, pem)
  }

  return (
    <fieldset className="listener-tls">
      <legend>{t('listeners.section.tls')}</legend>
      {PEM_FIELDS.map((name) => {
        const id = `${idBase}-${name}`
        return (
          <div className="schema-field listener-pem" key={name}>
            <label htmlFor={id}>{t(LABELS[name])}</label>
            <textarea
              id={id}
              className="input mono"
              rows={3}
              spellCheck={false}
              placeholder={t(editing ? 'listeners.pemKeep' : 'listeners.pemPlaceholder')}
              value={values[name] ?? ''}
              onChange={(event) => onChange(name, event.target.value)}
            />
            <label className="btn btn-sm listener-upload">
              {t('listeners.upload')}
              <input
                type="file"
                accept={CERT_EXTENSIONS.map((e) => `.${e}`).join(',')}
                data-testid={`upload-${name}`}
                onChange={(event) => void upload(name, event.target.files?.[0])}
              />
            </label>
            {failed[name] ? (
              <p className="field-error" role="alert">
                {t('err.uploadFailed')}
              </p>
            ) : null}
          </div>
        )
      })}
    </fieldset>
  )
}
