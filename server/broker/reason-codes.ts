// MQTT 5 reason codes the broker sends, and their MQTT 3.1/3.1.1 CONNACK equivalents.

export const RC = {
  SUCCESS: 0x00,
  DISCONNECT_WITH_WILL: 0x04,
  NO_MATCHING_SUBSCRIBERS: 0x10,
  NO_SUBSCRIPTION_EXISTED: 0x11,
  CONTINUE_AUTHENTICATION: 0x18,
  UNSPECIFIED_ERROR: 0x80,
  MALFORMED_PACKET: 0x81,
  PROTOCOL_ERROR: 0x82,
  CLIENT_IDENTIFIER_NOT_VALID: 0x85,
  UNSUPPORTED_PROTOCOL_VERSION: 0x84,
  BAD_USERNAME_OR_PASSWORD: 0x86,
  NOT_AUTHORIZED: 0x87,
  SERVER_UNAVAILABLE: 0x88,
  SERVER_BUSY: 0x89,
  BANNED: 0x8a,
  SERVER_SHUTTING_DOWN: 0x8b,
  BAD_AUTHENTICATION_METHOD: 0x8c,
  KEEP_ALIVE_TIMEOUT: 0x8d,
  SESSION_TAKEN_OVER: 0x8e,
  TOPIC_FILTER_INVALID: 0x8f,
  TOPIC_NAME_INVALID: 0x90,
  PACKET_IDENTIFIER_IN_USE: 0x91,
  PACKET_IDENTIFIER_NOT_FOUND: 0x92,
  RECEIVE_MAXIMUM_EXCEEDED: 0x93,
  TOPIC_ALIAS_INVALID: 0x94,
  PACKET_TOO_LARGE: 0x95,
  MESSAGE_RATE_TOO_HIGH: 0x96,
  QUOTA_EXCEEDED: 0x97,
  ADMINISTRATIVE_ACTION: 0x98,
  PAYLOAD_FORMAT_INVALID: 0x99,
  RETAIN_NOT_SUPPORTED: 0x9a,
  QOS_NOT_SUPPORTED: 0x9b,
  SHARED_SUBSCRIPTIONS_NOT_SUPPORTED: 0x9e,
  SUBSCRIPTION_IDENTIFIERS_NOT_SUPPORTED: 0xa1,
  WILDCARD_SUBSCRIPTIONS_NOT_SUPPORTED: 0xa2,
} as const

/** MQTT 3.1 / 3.1.1 CONNACK return codes. */
export const CONNACK_V3 = {
  ACCEPTED: 0,
  UNACCEPTABLE_PROTOCOL_VERSION: 1,
  IDENTIFIER_REJECTED: 2,
  SERVER_UNAVAILABLE: 3,
  BAD_USERNAME_OR_PASSWORD: 4,
  NOT_AUTHORIZED: 5,
} as const

/** The v3 CONNACK code closest to a v5 reason code. */
export function connackCodeV3(reasonCode: number): number {
  switch (reasonCode) {
    case RC.SUCCESS:
      return CONNACK_V3.ACCEPTED
    case RC.CLIENT_IDENTIFIER_NOT_VALID:
      return CONNACK_V3.IDENTIFIER_REJECTED
    case RC.BAD_USERNAME_OR_PASSWORD:
      return CONNACK_V3.BAD_USERNAME_OR_PASSWORD
    case RC.UNSUPPORTED_PROTOCOL_VERSION:
      return CONNACK_V3.UNACCEPTABLE_PROTOCOL_VERSION
    case RC.SERVER_UNAVAILABLE:
    case RC.SERVER_BUSY:
      return CONNACK_V3.SERVER_UNAVAILABLE
    default:
      return CONNACK_V3.NOT_AUTHORIZED
  }
}

const REASON_NAMES: Record<number, string> = {
  0x00: 'success',
  0x80: 'unspecified_error',
  0x81: 'malformed_packet',
  0x82: 'protocol_error',
  0x83: 'implementation_specific_error',
  0x84: 'unsupported_protocol_version',
  0x85: 'client_identifier_not_valid',
  0x86: 'bad_username_or_password',
  0x87: 'not_authorized',
  0x88: 'server_unavailable',
  0x89: 'server_busy',
  0x8a: 'banned',
  0x8b: 'server_shutting_down',
  0x8c: 'bad_authentication_method',
  0x8d: 'keepalive_timeout',
  0x8e: 'session_taken_over',
  0x8f: 'topic_filter_invalid',
  0x90: 'topic_name_invalid',
  0x93: 'receive_maximum_exceeded',
  0x94: 'topic_alias_invalid',
  0x95: 'packet_too_large',
  0x97: 'quota_exceeded',
  0x98: 'administrative_action',
  0x99: 'payload_format_invalid',
  0x9a: 'retain_not_supported',
  0x9b: 'qos_not_supported',
  0x9c: 'use_another_server',
  0x9d: 'server_moved',
  0x9f: 'connection_rate_exceeded',
}

/** EMQX's name of a reason code (emqx_reason_codes:name/1, MQTT 5 numbering), as its `client.connack` hook and events and its traces carry it. */
export function reasonName(reasonCode: number): string {
  return REASON_NAMES[reasonCode] ?? 'unknown_error'
}
