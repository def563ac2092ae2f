import { loadConfig } from './config.js';

describe('configuration', () => {
  test('listens on loopback unless HOST is set', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
  });

  test('HOST set to every interface is kept (production behind a load balancer)', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });
});
