// GET /error_codes and /error_codes/{code}: every error code EMQX 5.8.9's REST API answers with, in
// its order, with its descriptions (emqx/include/http_api.hrl ?ERROR_CODES). Both sides read it.
import * as v from 'valibot'

export const ERROR_CODES = [
  ['BAD_USERNAME_OR_PWD', 'Bad username or password'],
  ['BAD_API_KEY_OR_SECRET', 'Bad API key or secret'],
  ['BAD_REQUEST', 'Request parameters are invalid'],
  ['NOT_MATCH', 'Conditions are not matched'],
  ['ALREADY_EXISTS', 'Resource already existed'],
  ['BAD_CONFIG_SCHEMA', 'Configuration data is invalid'],
  ['BAD_LISTENER_ID', 'Bad listener ID'],
  ['BAD_NODE_NAME', 'Bad Node Name'],
  ['BAD_RPC', 'RPC Failed. Check the cluster status and the requested node status'],
  ['BAD_TOPIC', 'Topic syntax error, Topic needs to comply with the MQTT protocol standard'],
  ['EXCEED_LIMIT', 'Create resources that exceed the maximum limit or minimum limit'],
  ['INVALID_PARAMETER', 'Request parameters is invalid and exceeds the boundary value'],
  ['CONFLICT', 'Conflicting request resources'],
  ['NO_DEFAULT_VALUE', 'Request parameters do not use default values'],
  ['DEPENDENCY_EXISTS', 'Resource is dependent by another resource'],
  ['MESSAGE_ID_SCHEMA_ERROR', 'Message ID parsing error'],
  ['INVALID_ID', 'Bad ID schema'],
  ['MESSAGE_ID_NOT_FOUND', 'Message ID does not exist'],
  ['NOT_FOUND', 'Resource was not found or does not exist'],
  ['CLIENTID_NOT_FOUND', 'Client ID was not found or does not exist'],
  ['CLIENT_NOT_FOUND', 'Client was not found or does not exist(usually not a MQTT client)'],
  ['RESOURCE_NOT_FOUND', 'Resource not found'],
  ['TOPIC_NOT_FOUND', 'Topic not found'],
  ['USER_NOT_FOUND', 'User not found'],
  ['INTERNAL_ERROR', 'Server inter error'],
  ['SERVICE_UNAVAILABLE', 'Service unavailable'],
  ['SOURCE_ERROR', 'Source error'],
  ['UPDATE_FAILED', 'Update failed'],
  ['REST_FAILED', 'Reset source or config failed'],
  ['CLIENT_NOT_RESPONSE', 'Client not responding'],
  ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type'],
] as const

export type ErrorCodeName = (typeof ERROR_CODES)[number][0]

export const ErrorCodeSchema = v.object({ code: v.string(), description: v.string() })
export type ErrorCode = v.InferOutput<typeof ErrorCodeSchema>
export const ErrorCodeListSchema = v.array(ErrorCodeSchema)

export const errorCodeList = (): ErrorCode[] => ERROR_CODES.map(([code, description]) => ({ code, description }))

/** Another name fails the path's validation in 5.8 (`{code}` is an enum of the names above): a 400. */
export const errorCodeErrors = {
  notInEnum: { status: 400, code: 'BAD_REQUEST' },
} as const
