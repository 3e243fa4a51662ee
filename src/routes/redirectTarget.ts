// Where to go after logging in: only same-origin paths from the `to` query parameter are accepted.

export const HOME = '/dashboard/overview'

/** Returns `to` when it is a path on this origin (not back to /login), else the home screen. */
export function safeRedirectTarget(to: unknown): string {
  if (typeof to !== 'string' || to === '') return HOME
  // '//evil.example' and '/\evil.example' are protocol-relative in browsers; control characters can hide either.
  if (!to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return HOME
  if (/[\u0000-\u001f\u007f]/.test(to)) return HOME
  let url: URL
  try {
    url = new URL(to, 'http://same.origin')
  } catch {
    return HOME
  }
  if (url.origin !== 'http://same.origin') return HOME
  if (url.pathname === '/login' || url.pathname.startsWith('/login/')) return HOME
  return `${url.pathname}${url.search}${url.hash}`
}
