import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 18083}`

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1200 },
  server: { port: 5173, proxy: { '/api': { target: apiTarget, changeOrigin: true } } },
})
