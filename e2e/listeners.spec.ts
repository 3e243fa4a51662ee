import { createServer } from 'node:net'
import { join } from 'node:path'
import { test, expect } from '@playwright/test'
import mqtt, { type MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { closed } from './support/mqtt.ts'
import { makeCertificates } from '../tests/support/certs.ts'

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function connect(port: number, clientId: string): Promise<MqttClient> {
  const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { clientId, reconnectPeriod: 0, connectTimeout: 3000 })
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client))
    client.once('error', reject)
    client.once('close', () => reject(new Error('closed before CONNACK')))
  })
}

test('a listener created from the console takes a real MQTT client, is limited from its edit form; stopped from the console, the client goes and cannot connect again', async ({ page }) => {
  const port = await freePort()
  await login(page, '/listener')
  await expect(page.getByRole('heading', { name: 'Listeners' })).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: 'default' })).toHaveCount(2)

  await page.getByRole('combobox', { name: 'Type of the new listener' }).selectOption('tcp')
  await page.getByRole('button', { name: 'Add listener' }).click()
  const dialog = page.getByTestId('listener-create')
  await dialog.getByRole('textbox', { name: /^Name/ }).fill('e2e')
  await dialog.getByRole('textbox', { name: /^Bind address/ }).fill(`127.0.0.1:${port}`)
  await dialog.getByRole('textbox', { name: /^Name/ }).press('Enter')
  await expect(dialog).toBeHidden()

  const row = page.getByRole('row').filter({ hasText: `127.0.0.1:${port}` })
  await expect(row).toContainText('Running')
  const client = await connect(port, 'e2e-listener')
  await expect(row).toContainText('1 / Unlimited')

  // Edit: the form holds the settings in force; a limit of 1 keeps the client and refuses the next one.
  await row.getByRole('button', { name: 'Edit' }).click()
  const edit = page.getByTestId('listener-edit')
  await expect(edit.getByRole('textbox', { name: /^Bind address/ })).toHaveValue(`127.0.0.1:${port}`)
  const max = edit.getByRole('textbox', { name: /^Max connections/ })
  await expect(max).toHaveValue('infinity')
  await max.fill('1')
  await max.press('Enter')
  await expect(edit).toBeHidden()
  await expect(row).toContainText('1 / 1')
  await expect(connect(port, 'e2e-over-limit')).rejects.toThrow()
  expect(client.connected).toBe(true)

  await row.getByRole('button', { name: 'Stop' }).click()
  await expect(page.getByText('Stop listener tcp:e2e; all its connections will be closed')).toBeVisible()
  await page.keyboard.press('Enter')
  await closed(client)
  // Stop saves enable=false, as EMQX does.
  await expect(row).toContainText('Disabled')
  await expect(row.getByRole('button', { name: 'Start', exact: true })).toBeVisible()
  await expect(connect(port, 'e2e-refused')).rejects.toThrow()
})

test('an ssl listener made from uploaded certificate files takes a TLS client; a file that is not a certificate says Upload Failed', async ({ page }) => {
  const certs = makeCertificates('e2e-device')
  try {
    const port = await freePort()
    await login(page, '/listener')
    await page.getByRole('combobox', { name: 'Type of the new listener' }).selectOption('ssl')
    await page.getByRole('button', { name: 'Add listener' }).click()
    const dialog = page.getByTestId('listener-create')
    await expect(dialog.getByText('New SSL listener')).toBeVisible()
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('e2e')
    await dialog.getByRole('textbox', { name: /^Bind address/ }).fill(`127.0.0.1:${port}`)

    await dialog.getByTestId('upload-certfile').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
    await expect(dialog.getByText('Upload Failed')).toBeVisible()
    await dialog.getByTestId('upload-certfile').setInputFiles(join(certs.dir, 'server.crt'))
    await expect(dialog.getByText('Upload Failed')).toBeHidden()
    await expect(dialog.getByRole('textbox', { name: 'Certificate', exact: true })).toHaveValue(certs.serverCert)
    await dialog.getByTestId('upload-keyfile').setInputFiles(join(certs.dir, 'server.key'))
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog).toBeHidden()

    const row = page.getByRole('row').filter({ hasText: `127.0.0.1:${port}` })
    await expect(row).toContainText('SSL')
    await expect(row).toContainText('Running')
    const client = mqtt.connect(`mqtts://127.0.0.1:${port}`, { clientId: 'e2e-tls', reconnectPeriod: 0, ca: certs.ca, servername: 'localhost' })
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve())
      client.once('error', reject)
    })
    await expect(row).toContainText('1 / Unlimited')
    await client.endAsync()
  } finally {
    certs.remove()
  }
})
