// What a failed read shows in a screen: the error's own message (an ApiError's is the server's).
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
