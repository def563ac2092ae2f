import { preparedStatement } from './sql.js';

describe('preparedStatement', () => {
  test('numbers the ? placeholders, not a ? inside a quoted literal, and names the statement by its text', () => {
    const a = preparedStatement(`select ?, 'what?', 'it''s ?' from t where a = ? and b = ?::jsonb`);
    expect(a.text).toBe(`select $1, 'what?', 'it''s ?' from t where a = $2 and b = $3::jsonb`);
    expect(a.name).toMatch(/^s_[\w-]{20}$/);
    expect(preparedStatement(`select ?, 'what?', 'it''s ?' from t where a = ? and b = ?::jsonb`)).toEqual(a);
    expect(preparedStatement('select ?').name).not.toBe(a.name);
  });
});
