// The authentication forms' fields: EMQX's defaults, only the shown fields sent, nested paths,
// typed values, and a stored config read back into the form (a masked secret kept as it is).
import { describe, expect, it } from 'vitest'
import { AUTHN_FORMS, configOf, defaultValues, formFields, valuesOf, visibleFields } from '../src/features/authn/authnFields.ts'
import { PASSWORD_BACKENDS } from '../contract/authn.ts'

describe('authentication form fields', () => {
  it('has a form for every password backend of 5.8 CE, jwt and scram', () => {
    for (const backend of PASSWORD_BACKENDS) expect(formFields(`password_based:${backend}`).length).toBeGreaterThan(0)
    expect(Object.keys(AUTHN_FORMS)).toEqual(expect.arrayContaining(['jwt', 'scram:built_in_database']))
  })

  it('sends the built-in database defaults as EMQX nests them', () => {
    const fields = formFields('password_based:built_in_database')
    expect(configOf(fields, defaultValues(fields))).toEqual({
      config: { user_id_type: 'username', password_hash_algorithm: { name: 'sha256', salt_position: 'suffix' } },
      errors: [],
    })
  })

  it('sends only the fields the chosen hash has', () => {
    const fields = formFields('password_based:built_in_database')
    const values = { ...defaultValues(fields), 'password_hash_algorithm.name': 'pbkdf2' }
    expect(visibleFields(fields, values).map((field) => field.path)).not.toContain('password_hash_algorithm.salt_position')
    expect(configOf(fields, values).config.password_hash_algorithm).toEqual({ name: 'pbkdf2', mac_fun: 'sha256', iterations: 4096 })
    const bcrypt = configOf(fields, { ...values, 'password_hash_algorithm.name': 'bcrypt' }).config
    expect(bcrypt.password_hash_algorithm).toEqual({ name: 'bcrypt', salt_rounds: 10 })
  })

  it('says which required field is empty and which JSON does not parse', () => {
    const fields = formFields('password_based:http')
    const { errors } = configOf(fields, { ...defaultValues(fields), url: ' ', body: '{nope' })
    expect(errors).toEqual([
      { field: 'url', key: 'err.required' },
      { field: 'body', key: 'err.json' },
    ])
  })

  it('reads a stored JWT config back, the masked secret as GET gives it', () => {
    const fields = formFields('jwt')
    const values = valuesOf(fields, { mechanism: 'jwt', use_jwks: false, algorithm: 'hmac-based', secret: '******', verify_claims: { sub: '${username}' }, from: 'username' })
    expect(values).toMatchObject({ secret: '******', from: 'username', use_jwks: 'false' })
    expect(JSON.parse(values.verify_claims)).toEqual({ sub: '${username}' })
    expect(configOf(fields, values).config).toMatchObject({ secret: '******', algorithm: 'hmac-based', verify_claims: { sub: '${username}' }, disconnect_after_expire: true })
    expect(configOf(fields, { ...values, use_jwks: 'true', endpoint: 'https://idp/jwks' }).config).not.toHaveProperty('secret')
  })
})
