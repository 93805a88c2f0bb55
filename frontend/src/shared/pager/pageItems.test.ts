import { clampPage, pageItems } from './pageItems';

describe('pager', () => {
  it('shows every page when there are at most seven', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it.each([
    [1, 20, [1, 2, 3, 4, 5, 'ellipsis-right', 20]],
    [4, 20, [1, 2, 3, 4, 5, 'ellipsis-right', 20]],
    [5, 20, [1, 'ellipsis-left', 4, 5, 6, 'ellipsis-right', 20]],
    [10, 20, [1, 'ellipsis-left', 9, 10, 11, 'ellipsis-right', 20]],
    [17, 20, [1, 'ellipsis-left', 16, 17, 18, 19, 20]],
    [20, 20, [1, 'ellipsis-left', 16, 17, 18, 19, 20]],
    [5, 8, [1, 'ellipsis-left', 4, 5, 6, 7, 8]],
  ])('page %i of %i', (current, pages, want) => {
    const items = pageItems(current, pages);
    expect(items).toEqual(want);
    expect(items.length).toBeLessThanOrEqual(7);
    expect(items).toContain(Math.min(current, pages));
  });

  it('clamps page input to 1..last', () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(-3, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(3.7, 5)).toBe(3);
    expect(clampPage(NaN, 5)).toBe(1);
    expect(clampPage(4, 0)).toBe(1);
  });
});
