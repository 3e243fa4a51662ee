// A button that opens the file picker (a hidden file input, named for tests and screen readers)
// and hands over the chosen file; the input is emptied so the same file can be picked again.
import { useRef } from 'react'

export function FileButton(props: { label: string; inputLabel: string; accept: string; disabled?: boolean; onFile(file: File): void }) {
  const { label, inputLabel, accept, disabled, onFile } = props
  const input = useRef<HTMLInputElement>(null)
  return (
    <>
      <button type="button" className="btn" disabled={disabled} onClick={() => input.current?.click()}>
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        aria-label={inputLabel}
        onChange={(event) => {
          const file = event.target.files?.[0]
          event.target.value = ''
          if (file) onFile(file)
        }}
      />
    </>
  )
}
