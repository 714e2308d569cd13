/**
 * The OpenTelemetry entry of partstream ('partstream/otel'): re-exports only. It needs
 * `@opentelemetry/api` (an optional peer dependency); the root entry never loads it.
 *
 * @module partstream/otel
 */

export type { OpenTelemetryListenerOptions } from './telemetry/otel/otel-listener';
export { openTelemetryListener } from './telemetry/otel/otel-listener';
