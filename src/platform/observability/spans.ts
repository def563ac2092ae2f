import { isSpanContextValid, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

/**
 * Spans of our own (job runs, processor calls) beside the instrumentations' (HTTP, Fastify, pg,
 * GraphQL). Nothing is done unless tracing was started (tracing.ts: only when OTEL_* variables
 * ask for it), so without it a span costs one boolean test.
 */
let enabled = false;

/** Called by the tracing bootstrap once the SDK runs. */
export function enableSpans(): void {
  enabled = true;
}

export function spansEnabled(): boolean {
  return enabled;
}

const tracer = trace.getTracer('commerce');

/** Runs `work` inside a span `name` (a child of the active span), ended when it settles; a throw marks it an error. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: () => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!enabled) return work();
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work();
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The active span's trace and span ids (log lines, the response's trace header), or undefined outside a span. */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  if (!enabled) return undefined;
  const ctx = trace.getActiveSpan()?.spanContext();
  return ctx && isSpanContextValid(ctx) ? { traceId: ctx.traceId, spanId: ctx.spanId } : undefined;
}

export { SpanKind };
