/**
 * @module The loan-application chunk's entry (built by config/vite.embed.config.ts to its own IIFE): hands
 * `<ApplicationFlow>` (the loan application, then the bundle's widget) to the bundle that loaded it (application-host.ts). Its zod copy gets the private
 * config the bundle's has (zod-isolation.ts), for the same reasons.
 */
import './zod-isolation.ts'
import { ApplicationFlow } from '../widget/loan-application/ApplicationFlow.tsx'
import { APPLICATION_HOST } from './application-host.ts'
import { restoreHostZodConfig } from './zod-isolation.ts'

restoreHostZodConfig()
;(window as unknown as Record<string, { ready(component: typeof ApplicationFlow): void }>)[
  APPLICATION_HOST
]?.ready(ApplicationFlow)
