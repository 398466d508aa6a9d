import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shortWhen } from '../../../webview/historyDates';

describe('History dates', () => {
  // Local times: the day boundaries are the user's, whatever the test machine's zone.
  const now = new Date(2026, 10, 27, 15, 30).getTime();
  const at = (day: number, hour: number, minute = 0, year = 2026, month = 10) => new Date(year, month, day, hour, minute).getTime();

  it('says minutes and hours for today', () => {
    assert.equal(shortWhen(now - 20_000, now), 'just now');
    assert.equal(shortWhen(at(27, 15, 25), now), '5 min');
    assert.equal(shortWhen(at(27, 12, 10), now), '3 h');
    assert.equal(shortWhen(at(27, 0, 5), now), '15 h');
  });

  it('says yesterday by the calendar, not by 24 hours', () => {
    assert.equal(shortWhen(at(26, 23, 50), now), 'yesterday');
    assert.equal(shortWhen(at(26, 1, 0), now), 'yesterday');
  });

  it('names the weekday within a week, else the date, with the year only when it is not this one', () => {
    assert.equal(shortWhen(at(24, 9), now, 'en-US'), 'Tue');
    assert.equal(shortWhen(at(3, 9), now, 'en-US'), 'Nov 3');
    assert.equal(shortWhen(at(20, 9, 0, 2025, 11), now, 'en-US'), 'Dec 20, 2025');
  });
});
