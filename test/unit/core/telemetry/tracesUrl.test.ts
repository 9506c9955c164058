import { describe, expect, it } from 'vitest';
import { tracesUrl } from '../../../../src/core/run/telemetry/runTracing';

describe('tracesUrl', () => {
  it("gives a bare origin OTLP/HTTP's standard path, as OTEL_EXPORTER_OTLP_ENDPOINT does", () => {
    expect(tracesUrl('http://localhost:4318')).toBe('http://localhost:4318/v1/traces');
    expect(tracesUrl('https://collector.example/')).toBe('https://collector.example/v1/traces');
  });

  it('keeps a URL that has a path (or a query) as it is', () => {
    expect(tracesUrl('http://localhost:4318/v1/traces')).toBe('http://localhost:4318/v1/traces');
    expect(tracesUrl('https://otel.example/api/public/otel/v1/traces')).toBe('https://otel.example/api/public/otel/v1/traces');
    expect(tracesUrl('https://otel.example/?tenant=a')).toBe('https://otel.example/?tenant=a');
  });
});
