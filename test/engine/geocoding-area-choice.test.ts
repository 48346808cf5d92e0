// A name's rows in many towns: the rows holding the most of the query's town words come first, then
// those whose words are rarest among the name's rows, then the lowest id (area-choice.ts).
import { rowsHoldingMost } from '../../core/geocoding/area-choice';

describe('rowsHoldingMost', () => {
  it('puts the one row holding every word first, whatever the rows holding fewer', () => {
    // "Baltimore 0-0 21231": sixteen towns hold "baltimore" and "21231", one holds "0" too.
    const decoys = Array.from({ length: 16 }, (_, i) => i + 1);
    const held = [[...decoys, 26], [26, 40, 41], [...decoys, 26]];
    expect(rowsHoldingMost(held, 8)[0]).toBe(26);
  });

  it('orders rows holding as many words by the rarer word, then by id', () => {
    // Rows 1-4 hold the frequent word, rows 7 and 5 the rare one: 5 and 7 first, lower id first.
    expect(rowsHoldingMost([[1, 2, 3, 4], [7, 5]], 10)).toEqual([5, 7, 1, 2, 3, 4]);
  });

  it('takes at most the limit, and nothing from no rows', () => {
    expect(rowsHoldingMost([[3, 1, 2]], 2)).toEqual([1, 2]);
    expect(rowsHoldingMost([[], []], 8)).toEqual([]);
  });
});
