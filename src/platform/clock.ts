/**
 * Test clocks. Each merchant's test mode runs on its own clock: real time plus
 * `merchants.test_clock_offset_ms` (moved by `POST /api/v2/test-helpers/advance-clock`); live
 * mode always runs on real time. Requests see it as `ctx.now()`; sweeps compare due columns with
 * `effectiveNowSql(alias)` so that one sweep serves live rows and every test clock at once.
 */

/** SQL for "now" as the row `alias` (with `merchant_id` and `livemode` columns) sees it. */
export function effectiveNowSql(alias: string, base = 'now()'): string {
  return `(${base} + case when ${alias}.livemode then interval '0' else (select m.test_clock_offset_ms from merchants m where m.id = ${alias}.merchant_id) * interval '1 millisecond' end)`;
}
