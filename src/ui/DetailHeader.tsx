// The top of a detail screen (a rule, a connector, an action): its title with its state, on the
// right what comes before Refresh (the enable switch), Refresh, and the screen's own actions (Start,
// Duplicate, Delete); under it the way back to the list.
import type { ReactNode } from 'react'
import { PageHeader, type PageHeaderProps } from './PageHeader.tsx'

export function DetailHeader({ back, ...header }: PageHeaderProps & { back: ReactNode }) {
  return (
    <>
      <PageHeader {...header} />
      <p className="muted">{back}</p>
    </>
  )
}
