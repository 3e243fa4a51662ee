// The one escaping of control characters lives with the headless formatters, which the CLI shares.
export * from '../../commands/format/escapeControl.ts'
