// telemetry.update as the switch on the telemetry screen runs it, against the real server: the
// server's refusal comes back as it words it, and the status stays off.
import { expect, it } from 'vitest'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'

const suite = consoleSuite()

it("shows the server's answer to turning telemetry on or off, and reads the report", async () => {
  const { api } = suite
  expect(invalidArgs('telemetry.update', { enable: 'maybe' })).toEqual(['enable:err.boolean'])
  await expect(runCommand(api, 'telemetry.update', { enable: 'true' })).rejects.toMatchObject({ status: 400, code: 'BAD_REQUEST', message: expect.stringMatching(/never sends telemetry/) })
  await expect(runCommand(api, 'telemetry.update', { enable: 'false' })).rejects.toMatchObject({ status: 400, message: 'Telemetry status is already disabled' })
  expect(await api.telemetry.status()).toEqual({ enable: false })
  expect((await api.telemetry.data()).license.edition).toBe('opensource')
})
