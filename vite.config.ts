import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { localeParts } from './scripts/locale-parts.ts'

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 18083}`

export default defineConfig({
  plugins: [react(), localeParts()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically in one chunk: left to itself rolldown cuts the
        // modules it shares with lazy chunks into a score of small chunks, a request each, which
        // also compress worse than one.
        codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] },
        // A language's strings are `assets/locale-<lang>-<hash>.js`, the part /login shows
        // `assets/locale-<lang>-login-<hash>.js`, so the bundle bench can count the one the first load fetches.
        chunkFileNames: (chunk) => {
          const locale = /\/locales\/([\w-]+)\.json(\?part=login)?$/.exec(chunk.facadeModuleId ?? '')
          if (!locale) return 'assets/[name]-[hash].js'
          return `assets/locale-${locale[1]}${locale[2] ? '-login' : ''}-[hash].js`
        },
      },
    },
  },
  server: { port: 5173, proxy: { '/api': { target: apiTarget, changeOrigin: true } } },
})
