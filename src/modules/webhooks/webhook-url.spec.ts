import { webhookUrlProblem } from './webhook-url.js';

test.each([
  ['https://hooks.example.com/receive', false],
  ['https://hooks.example.com/receive', true],
  ['http://127.0.0.1:4567/hook', false],
  ['http://localhost:3000/hook', false],
  ['http://[::1]:3000/hook', false],
  ['https://10.0.0.5/hook', false],
])('%s is accepted (livemode %s)', (url, livemode) => {
  expect(webhookUrlProblem(url, livemode)).toBeNull();
});

test.each([
  ['http://hooks.example.com/receive', false, /https/],
  ['http://hooks.example.com/receive', true, /https/],
  ['http://127.0.0.1:4567/hook', true, /https/],
  ['https://127.0.0.1/hook', true, /public/],
  ['https://localhost/hook', true, /public/],
  ['https://10.1.2.3/hook', true, /public/],
  ['https://172.20.0.1/hook', true, /public/],
  ['https://192.168.1.1/hook', true, /public/],
  ['https://169.254.169.254/latest/meta-data', true, /public/],
  ['https://[fd00::1]/hook', true, /public/],
  ['https://[::ffff:127.0.0.1]/hook', true, /public/],
  ['https://printer.local/hook', true, /public/],
  ['https://intranet/hook', true, /public/],
  ['ftp://example.com/hook', false, /https/],
  ['https://user:pw@example.com/hook', false, /credentials/],
  ['not a url', false, /absolute/],
])('%s is refused (livemode %s)', (url, livemode, problem) => {
  expect(webhookUrlProblem(url, livemode)).toMatch(problem);
});
