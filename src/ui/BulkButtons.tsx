// The buttons a list shows above its table while rows are selected (Enable selected (2), ...).
export function BulkButtons({ buttons, className }: { buttons: readonly { label: string; danger?: boolean; onClick(): void }[]; className?: string }) {
  return (
    <span className={className}>
      {buttons.map(({ label, danger, onClick }) => (
        <button key={label} type="button" className={`btn${danger ? ' btn-danger' : ''} btn-sm`} onClick={onClick}>
          {label}
        </button>
      ))}
    </span>
  )
}
