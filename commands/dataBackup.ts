// Data backups: export the server's configuration and data to an archive, upload one, import one
// (confirmed: it writes over users, keys, bans, access control, retained messages and settings),
// download one (the browser saves it) and delete one.
import * as v from 'valibot'
import { isBackupName, tableSets } from '../src/api/dataBackup.ts'
import { defineCommand, type Completer } from './define.ts'

/** Names of the backups the node holds. */
const completeBackup: Completer = async (api, query, signal) => {
  const files = await api.dataBackup.list({ limit: 1000 }, signal)
  return files.data.map((file) => file.filename).filter((name) => name.includes(query))
}

const filename = () => v.pipe(v.string('err.required'), v.title('form.field.backupFile'), v.trim(), v.check(isBackupName, 'err.backupName'))
const node = () => v.optional(v.pipe(v.string(), v.title('form.field.node'), v.description('form.hint.backupNode')))

/** A comma-separated list as the array EMQX takes; empty means left out. */
const list = (text: string | undefined) => {
  const items = (text ?? '').split(',').map((item) => item.trim()).filter(Boolean)
  return items.length > 0 ? items : undefined
}

export const exportBackup = defineCommand({
  id: 'backup.export',
  title: 'cmd.backup.export',
  group: 'cmdGroup.backup',
  changes: ['dataBackup'],
  args: v.object({
    table_sets: v.optional(
      v.pipe(
        v.string(),
        v.title('form.field.tableSets'),
        v.description('form.hint.tableSets'),
        v.check((text) => (list(text) ?? []).every((set) => (tableSets as readonly string[]).includes(set)), 'err.tableSets'),
      ),
    ),
    root_keys: v.optional(v.pipe(v.string(), v.title('form.field.rootKeys'), v.description('form.hint.rootKeys'))),
  }),
  aliases: ['backup', 'export data', '导出备份', '备份'],
  run: (ctx, { table_sets, root_keys }) => {
    const sets = list(table_sets)
    const roots = list(root_keys)
    return ctx.api.dataBackup.export({ ...(sets ? { table_sets: sets } : {}), ...(roots ? { root_keys: roots } : {}) })
  },
  resultText: (file) => ({ key: 'cmd.backup.exported', values: { filename: file.filename } }),
})

export const uploadBackup = defineCommand({
  id: 'backup.upload',
  title: 'cmd.backup.upload',
  group: 'cmdGroup.backup',
  changes: ['dataBackup'],
  args: v.object({
    filename: filename(),
    content: v.pipe(v.string('err.required'), v.title('form.field.backupContent'), v.minLength(1, 'err.required'), v.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'err.base64')),
  }),
  positional: ['filename'],
  // The archive, base64: too large for the terminal or the history.
  secretArgs: ['content'],
  aliases: ['upload backup', '上传备份'],
  describe: ({ filename }) => ({ key: 'cmd.backup.uploadDescribe', values: { filename } }),
  run: (ctx, { filename, content }) => {
    const bytes = Uint8Array.from(atob(content), (char) => char.charCodeAt(0))
    return ctx.api.dataBackup.upload(new Blob([bytes], { type: 'application/gzip' }), filename)
  },
})

export const importBackup = defineCommand({
  id: 'backup.import',
  title: 'cmd.backup.import',
  group: 'cmdGroup.backup',
  // What an archive holds: all of it may change.
  changes: ['dataBackup', 'users', 'apiKeys', 'banned', 'authn', 'authz', 'retainer', 'delayed', 'flapping', 'topicRewrite', 'autoSubscribe', 'topicMetrics', 'mqttConfig', 'alarmConfig', 'sysmon', 'slowSubs'],
  args: v.object({ filename: filename(), node: node() }),
  positional: ['filename'],
  danger: true,
  aliases: ['restore backup', 'import data', '导入备份', '恢复备份'],
  complete: { filename: completeBackup },
  describe: ({ filename }) => ({ key: 'cmd.backup.importDescribe', values: { filename } }),
  run: (ctx, { filename, node }) => ctx.api.dataBackup.import(filename, node),
})

export const downloadBackup = defineCommand({
  id: 'backup.download',
  title: 'cmd.backup.download',
  group: 'cmdGroup.backup',
  readOnly: true,
  args: v.object({ filename: filename(), node: node() }),
  positional: ['filename'],
  aliases: ['download backup', '下载备份'],
  complete: { filename: completeBackup },
  run: async (ctx, { filename, node }) => {
    const file = await ctx.api.dataBackup.download(filename, node)
    ctx.ui?.saveFile?.(filename, file)
    return { filename, size: file.size }
  },
  resultText: ({ filename, size }) => ({ key: 'cmd.backup.downloaded', values: { filename, size } }),
})

export const deleteBackup = defineCommand({
  id: 'backup.delete',
  title: 'cmd.backup.delete',
  group: 'cmdGroup.backup',
  changes: ['dataBackup'],
  args: v.object({ filename: filename(), node: node() }),
  positional: ['filename'],
  danger: true,
  aliases: ['remove backup', '删除备份'],
  complete: { filename: completeBackup },
  describe: ({ filename }) => ({ key: 'cmd.backup.deleteDescribe', values: { filename } }),
  run: (ctx, { filename, node }) => ctx.api.dataBackup.delete(filename, node),
})

export const dataBackupCommands = [exportBackup, uploadBackup, importBackup, downloadBackup, deleteBackup]
