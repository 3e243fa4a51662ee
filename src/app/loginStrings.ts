// The sections of a locale file that /login shows (its form and language switch, the change-password
// prompt, notifications, the not-found page): the first load fetches only these of the chosen
// language's strings, and the authenticated shell loads the whole file (src/app/i18n.ts).
// scripts/locale-parts.ts cuts them out at build time; tests/login-strings.test.ts checks that the
// login page's keys are all here.
export const loginSections = ['common', 'login', 'password', 'settings', 'shell', 'notify'] as const
