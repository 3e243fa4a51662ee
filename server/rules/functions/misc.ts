// Null handling, type checks, random values and ids, the per-process and node-wide stores, getenv.
import { randomUUID } from 'node:crypto'
import { toMap } from './conversion.ts'
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { badarg, isInt, isMap, text } from './values.ts'

const isEmptyText = (v: unknown): boolean => v === '' || (v instanceof Uint8Array && v.length === 0)

function coalesce(skip: (v: unknown) => boolean) {
  // coalesce(List) or coalesce(A, B).
  return ruleFn([1, 2], (...args) => {
    const list = args.length === 1 ? args[0] : args
    return Array.isArray(list) ? list.find((v) => !skip(v)) : badarg('coalesce', ...args)
  })
}

// EMQX keeps these in the rule's process dictionary and an ETS table; here they live for the
// server process, which is what a single-node console runs rules in.
const processDict = new Map<string, unknown>()
const kvStore = new Map<string, unknown>()
const storeKey = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? 'undefined'

export const miscFunctions: RuleFunctionGroup = {
  null: ruleFn([0], () => undefined),
  coalesce: coalesce((v) => v === undefined),
  coalesce_ne: coalesce((v) => v === undefined || isEmptyText(v)),
  is_null: ruleFn([1], (v) => v === undefined),
  is_null_var: ruleFn([1], (v) => v === undefined || v === null),
  is_not_null: ruleFn([1], (v) => v !== undefined),
  is_not_null_var: ruleFn([1], (v) => v !== undefined && v !== null),
  is_str: ruleFn([1], (v) => typeof v === 'string' || v instanceof Uint8Array),
  is_bool: ruleFn([1], (v) => typeof v === 'boolean'),
  is_int: ruleFn([1], (v) => isInt(v)),
  is_float: ruleFn([1], (v) => typeof v === 'number' && !Number.isInteger(v)),
  is_num: ruleFn([1], (v) => typeof v === 'number' || typeof v === 'bigint'),
  is_map: ruleFn([1], (v) => isMap(v)),
  is_array: ruleFn([1], (v) => Array.isArray(v)),
  // [] and "" are empty; anything else goes through map/1 (a JSON object text, a map), else badarg.
  is_empty: ruleFn([1], (v) => (Array.isArray(v) ? v.length === 0 : isEmptyText(v) ? true : Object.keys(toMap(v)).length === 0)),
  random: ruleFn([0], () => Math.random()),
  uuid_v4: ruleFn([0], () => randomUUID()),
  uuid_v4_no_hyphen: ruleFn([0], () => randomUUID().replaceAll('-', '')),
  proc_dict_get: ruleFn([1], (k) => processDict.get(storeKey(k))),
  // erlang:put answers the previous value.
  proc_dict_put: ruleFn([2], (k, v) => {
    const old = processDict.get(storeKey(k))
    processDict.set(storeKey(k), v)
    return old
  }),
  proc_dict_del: ruleFn([1], (k) => {
    const old = processDict.get(storeKey(k))
    processDict.delete(storeKey(k))
    return old
  }),
  kv_store_get: ruleFn([1, 2], (k, fallback) => (kvStore.has(storeKey(k)) ? kvStore.get(storeKey(k)) : fallback)),
  kv_store_put: ruleFn([2], (k, v) => {
    kvStore.set(storeKey(k), v)
    return true
  }),
  kv_store_del: ruleFn([1], (k) => {
    kvStore.delete(storeKey(k))
    return true
  }),
  getenv: ruleFn([1], (name) => process.env[`EMQXVAR_${text('getenv', name)}`] ?? ''),
}
