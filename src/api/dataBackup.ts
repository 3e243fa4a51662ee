// Data backups (`/data/*`): export, list, download, delete, upload and import archives.
import * as v from 'valibot'
import { backupFileSchema, backupFilesSchema, type BackupFile, type BackupFiles, type ExportRequest } from '../../contract/data-backup.ts'
import { pathSegment } from './clients.ts'
import { toApiError, type Http } from './http.ts'
import { queryPaging } from './listQuery.ts'

export type { BackupFile, BackupFiles, ExportRequest } from '../../contract/data-backup.ts'
export { TABLE_SETS as tableSets, isBackupName } from '../../contract/data-backup.ts'

/** The backup list's URL: the page and its size. */
export const backupSearch = v.object({ ...queryPaging })

const nodeQuery = (node?: string) => (node ? `?node=${encodeURIComponent(node)}` : '')

export function dataBackupApi(http: Http) {
  return {
    list(params: { page?: number; limit?: number } = {}, signal?: AbortSignal): Promise<BackupFiles> {
      return http.get('data/files', backupFilesSchema, { ...params }, signal)
    },
    /** Every table set and root when the request names none. */
    export(request: ExportRequest = {}): Promise<BackupFile> {
      return http.send('post', 'data/export', backupFileSchema, request)
    },
    /** Imports a file the node holds (this node's when `node` is left out). */
    import(filename: string, node?: string): Promise<void> {
      return http.send('post', 'data/import', null, node ? { filename, node } : { filename })
    },
    delete(filename: string, node?: string): Promise<void> {
      return http.send('delete', `data/files/${pathSegment(filename)}${nodeQuery(node)}`, null)
    },
    /** Sent as EMQX's console sends it: multipart, the file in the part named `filename`. */
    async upload(file: Blob, filename: string): Promise<void> {
      const form = new FormData()
      form.append('filename', file, filename)
      try {
        await http.ky.post('data/files', { body: form })
      } catch (error) {
        throw toApiError(error)
      }
    },
    async download(filename: string, node?: string): Promise<Blob> {
      try {
        return await http.ky.get(`data/files/${pathSegment(filename)}${nodeQuery(node)}`, { timeout: false }).blob()
      } catch (error) {
        throw toApiError(error)
      }
    },
  }
}

export type DataBackupApi = ReturnType<typeof dataBackupApi>
