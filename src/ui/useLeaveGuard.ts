// SPEC 4: leaving a form with edits warns 'Changes that you made may not be saved'. Inside the
// console the router asks through the confirmation dialog; closing or reloading the tab gets the
// browser's own warning.
import { useBlocker } from '@tanstack/react-router'
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useConfirm } from './Confirm.tsx'

/** Guards the page while `dirty`; `release()` lets the next navigation through (after a save). */
export function useLeaveGuard(dirty: boolean): { release(): void } {
  const { t } = useTranslation()
  const confirm = useConfirm()
  const released = useRef(false)
  // A form saved and shown again as stored (a settings tab) guards its next edits again.
  if (!dirty) released.current = false
  const guarding = dirty && !released.current
  useBlocker({
    shouldBlockFn: async () => {
      if (!dirty || released.current) return false
      const leave = await confirm({ title: t('rules.leaveTitle'), text: t('rules.unsaved'), confirmLabel: t('rules.leave') })
      return !leave
    },
    enableBeforeUnload: guarding,
  })
  return {
    release() {
      released.current = true
    },
  }
}
