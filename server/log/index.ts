// The server's logger: what its code logs through, and the sinks other parts receive records from.
export { addLogSink, configureLogging, log, logDirectory, resetLogging, resolveLogPath, type LogRecord, type LogSink, type ServerLogger } from './logger.ts'
export { checkWritable } from './rotating-file.ts'
